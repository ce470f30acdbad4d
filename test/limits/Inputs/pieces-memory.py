"""Writes a cachegrind-like profile of many rows to FILE, reads it under
-max-memory=4 in one piece and in eight with PROFKIT_OPT, and prints how
much more memory eight pieces took, in units of the limit.

Each of the eight pieces alone needs less than the limit, all of them
more: were the limit each reader's own, the eight would read their pieces
to the end before their sum was checked."""
import os
import random
import resource
import subprocess
import sys

opt, path = sys.argv[1], sys.argv[2]
limit_mb = 4
rand = random.Random(1)
with open(path, "w") as f:
    f.write("events: Ir Dr Dw\n")
    for file in range(8000):
        f.write("fl=dir%d/file.c\n" % file)
        for function in range(4):
            f.write("fn=f%d\n" % function)
            f.write("".join("%d %d %d %d\n" % (line * 3 + 1,
                                               rand.randrange(1, 100000),
                                               rand.randrange(1, 1000),
                                               rand.randrange(1, 100))
                            for line in range(60)))


def peak(pieces):
    # ru_maxrss of the children is the largest of theirs so far: the read
    # expected to take less goes first.
    run = subprocess.run([opt, path, "-max-memory=%d" % limit_mb,
                          "-threads=%d" % pieces, "-read-threads=%d" % pieces,
                          "-disable-output"], capture_output=True, text=True)
    # Both fail at the line that goes over the limit.
    print(run.stderr.splitlines()[-1].replace(path, "FILE"))
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


one = peak(1)
eight = peak(8)
print("8 pieces: %.1f times the limit more than 1" %
      ((eight - one) / (limit_mb << 20)))
