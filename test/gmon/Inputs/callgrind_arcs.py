"""Prints the calls= counts of a callgrind file between functions of one
object (matched by file name) as `caller -> callee count`, sorted, one per
line. Recursion levels (NAME'2) are folded into NAME."""
import os
import re
import sys

path, obj = sys.argv[1], os.path.basename(sys.argv[2])
names = {"ob": {}, "fn": {}}
ob = fn = cob = cfn = None
arcs = {}


def name(kind, value):
    m = re.match(r"\((\d+)\)(?: (.*))?$", value)
    if not m:
        return value
    table = names[kind]
    if m.group(2) is not None:
        table[m.group(1)] = m.group(2)
    return table[m.group(1)]


def base(f):
    return re.sub(r"'\d+$", "", f)


for line in open(path):
    line = line.rstrip("\n")
    key, _, value = line.partition("=")
    if key == "ob":
        ob = name("ob", value)
    elif key == "cob":
        cob = name("ob", value)
    elif key == "fn":
        fn = name("fn", value)
        cob = None
    elif key == "cfn":
        cfn = name("fn", value)
    elif key == "calls":
        callee_ob = cob if cob is not None else ob
        if os.path.basename(ob) == obj and os.path.basename(callee_ob) == obj:
            k = (base(fn), base(cfn))
            arcs[k] = arcs.get(k, 0) + int(value.split()[0])
        cob = None
for (a, b), n in sorted(arcs.items()):
    print(f"{a} -> {b} {n}")
