"""Writes a run of many small dumps to FILE, reads it with PROFKIT_OPT in
one piece and in three, and prints how much more memory three pieces took,
in tenths of the file's size.

A dump's header lines, much of its text here as in a run of
--dump-every-bb, are what a digest keeps of them: kept line by line (and
to the end of the read), the digests of two of three pieces took more
memory than the file's size."""
import os
import resource
import subprocess
import sys

opt, path = sys.argv[1], sys.argv[2]
desc = "".join("desc: Option %d: %s\n" % (i, "x" * 90) for i in range(12))
with open(path, "w") as f:
    f.write("# callgrind format\nversion: 1\ncreator: digest-memory.py\n")
    for part in range(1, 10001):
        f.write("\npart: %d\n%spositions: line\nevents: Ir\n\nfl=(1) a.c\n" %
                (part, desc))
        for i in range(20):
            f.write("fn=(%d) function_%d_of_a_run_of_dumps\n%d %d\n%d 3\n" %
                    (i + 1, i, i % 90 + 1, part, i % 7 + 2))
size = os.path.getsize(path)


def peak(pieces):
    # ru_maxrss of the children is the largest of theirs so far: the read
    # expected to take less goes first.
    subprocess.run([opt, path, "-threads=%d" % pieces,
                    "-read-threads=%d" % pieces, "-disable-output"],
                   check=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


one = peak(1)
three = peak(3)
print("3 pieces: %d tenths of the file's size more than 1" %
      ((three - one) * 10 // size))
