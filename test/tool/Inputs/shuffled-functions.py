#!/usr/bin/env python3
"""shuffled-functions.py N SEED: a callgrind profile of N functions (and one part)
in an order and with costs that depend on SEED, each with self rows in two
files and a call, large enough that merge copies its functions on several
threads."""
import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
order = list(range(n + 500 * seed))  # Later seeds add functions of their own.
rng.shuffle(order)
out = ["version: 1", "creator: shuffled-functions.py", "positions: line",
       "events: Ir Dr", ""]
for f in order:
    out.append("ob=lib%d.so" % (f % 2))
    out.append("fl=src/file%d.c" % (f % 3))
    out.append("fn=func_%d" % f)
    line = 10 + f % 50
    out.append("%d %d %d" % (line, rng.randrange(1, 1000), rng.randrange(4)))
    out.append("fi=src/inline.h")
    out.append("%d %d" % (line + 2, rng.randrange(1, 100)))
    out.append("fe=src/file%d.c" % (f % 3))
    callee = (f * 7 + 1) % n
    out.append("cob=lib%d.so" % (callee % 2))
    out.append("cfi=src/file%d.c" % (callee % 3))
    out.append("cfn=func_%d" % callee)
    out.append("calls=%d %d" % (rng.randrange(1, 50), 10 + callee % 50))
    out.append("%d %d 0" % (line + 1, rng.randrange(1, 5000)))
    out.append("")
print("\n".join(out))
