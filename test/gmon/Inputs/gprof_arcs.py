"""Prints the arcs of a `gprof -b -q` call graph as `caller -> callee count`,
sorted, one per line."""
import re
import sys

NAME = re.compile(r"(\S+)(?: <cycle \d+>)? \[\d+\]\s*$")
COUNT = re.compile(r"^\s+(?:\S+\s+\S+\s+)?(\d+)(?:/\d+)?\s+\S")

arcs = {}
block = []


def flush():
    primary = [i for i, l in enumerate(block) if l.startswith("[")]
    if not primary or "as a whole" in block[primary[0]]:
        return
    p = primary[0]
    caller = NAME.search(block[p]).group(1)
    # Parent lines (above the primary line) and child lines (below) both
    # show arcs; entries of uncalled functions without time are not printed,
    # so their arcs appear only as parent lines elsewhere.
    for i, line in enumerate(block):
        m, n = COUNT.match(line), NAME.search(line)
        if i != p and m and n:
            key = (n.group(1), caller) if i < p else (caller, n.group(1))
            arcs[key] = int(m.group(1))


for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("-----"):
        flush()
        block = []
    elif line.startswith("Index by function name"):
        break
    else:
        block.append(line)
flush()
for (a, b), n in sorted(arcs.items()):
    print(f"{a} -> {b} {n}")
