#!/usr/bin/env python3
"""Writes the instruction and call counts of one object in a callgrind
--dump-instr=yes profile as llvm-profgen's unsymbolized profile (one range
a-a:count per executed instruction, one branch callsite->entry:count per
call inside the object), so llvm-profgen can be run on the same counts."""
import sys

def parse_position(fields, last, n):
    """A position of n subpositions: absolute, or +N, -N, * relative to last."""
    pos = []
    for i in range(n):
        f = fields[i]
        prev = last[i] if last else 0
        if f == "*":
            pos.append(prev)
        elif f[0] in "+-":
            pos.append(prev + int(f, 0))
        else:
            pos.append(int(f, 0))
    return pos


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: callgrind-to-unsymbolized.py CALLGRIND-FILE OBJECT-PATH")
    path, obj = sys.argv[1], sys.argv[2]
    names = {}
    # Compressed names: objects, functions and files each share one table.
    space = {"ob": "ob", "cob": "ob", "fn": "fn", "cfn": "fn", "jfn": "fn"}
    def name(v):
        v = v.strip()
        if v.startswith("("):
            i = v.index(")")
            k = (space.get(key, "fl"), v[1:i])
            rest = v[i + 1:].strip()
            if rest:
                names[k] = rest
            return names.get(k, rest)
        return v
    ranges, branches = {}, {}
    positions = ["line"]
    ob = cob = None
    last = None  # previous position, for relative positions
    pending_call = None  # (count, target address) awaiting its cost line
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if not line or line[0] == "#":
            continue
        if line.startswith("positions:"):
            positions = line.split(":", 1)[1].split()
            continue
        c = line[0]
        if c.isdigit() or c in "+-*":
            fields = line.split()
            pos = parse_position(fields, last, len(positions))
            last = pos
            cost = int(fields[len(positions)]) if len(fields) > len(positions) else 0
            addr = pos[positions.index("instr")]
            if pending_call:
                count, target = pending_call
                pending_call = None
                callee_ob, cob = cob, ob  # cob= names one call's object.
                if ob == obj and callee_ob == obj:
                    k = (addr, target)
                    branches[k] = branches.get(k, 0) + count
                continue
            if ob == obj and cost:
                ranges[addr] = ranges.get(addr, 0) + cost
            continue
        if "=" not in line:
            continue
        key, val = line.split("=", 1)
        if key == "ob":
            ob = name(val)
            cob = ob
        elif key == "cob":
            cob = name(val)
        elif key in ("fn", "fl", "fi", "fe", "cfn", "cfi", "cfl", "jfi",
                     "jfn"):
            name(val)
            if key == "fn":
                cob = ob
        elif key == "calls":
            f = val.split()
            # The target is relative to the last cost line, as positions are.
            target = parse_position(f[1:], last, len(positions))
            pending_call = (int(f[0]), target[positions.index("instr")])
    out = sys.stdout
    out.write("%d\n" % len(ranges))
    for a in sorted(ranges):
        out.write("%x-%x:%d\n" % (a, a, ranges[a]))
    out.write("%d\n" % len(branches))
    for (s, d) in sorted(branches):
        out.write("%x->%x:%d\n" % (s, d, branches[(s, d)]))

main()
