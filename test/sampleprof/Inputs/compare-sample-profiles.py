#!/usr/bin/env python3
"""Compares two text sample profiles (llvm-profdata's text format): ours and
llvm-profgen's, made from the same counts. Everything must be equal (body
counts at each line offset and discriminator, call targets, inline call
sites with their bodies and totals, function totals) except head samples:
ours count calls from every object, llvm-profgen's only calls from inside
the binary, so ours may be larger. Prints a one-line summary, or every
difference and exits 1."""
import re
import sys

HEAD = re.compile(r"^(\S+):(\d+):(\d+)$")
LOC = re.compile(r"^(\d+)(?:\.(\d+))?: (.*)$")


def parse(path):
    funcs = {}
    stack = []  # (indent, node)
    for raw in open(path):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        text = line.strip()
        if indent == 0:
            m = HEAD.match(text)
            if not m:
                sys.exit("%s: bad header: %s" % (path, line))
            node = {"total": int(m.group(2)), "head": int(m.group(3)),
                    "body": {}, "calls": {}, "inlined": {}}
            funcs[m.group(1)] = node
            stack = [(0, node)]
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        m = LOC.match(text)
        if not m:
            sys.exit("%s: bad line: %s" % (path, line))
        loc = (int(m.group(1)), int(m.group(2) or 0))
        rest = m.group(3).split()
        if ":" in rest[0]:  # An inlined call site: callee:total.
            name, total = rest[0].rsplit(":", 1)
            node = {"total": int(total), "head": 0, "body": {}, "calls": {},
                    "inlined": {}}
            parent["inlined"][(loc, name)] = node
            stack.append((indent, node))
            continue
        parent["body"][loc] = int(rest[0])
        for t in rest[1:]:
            name, count = t.rsplit(":", 1)
            parent["calls"][(loc, name)] = int(count)
    return funcs


def compare(where, a, b, top, diffs):
    if a["total"] != b["total"]:
        diffs.append("%s: total %d != %d" % (where, a["total"], b["total"]))
    if top and a["head"] < b["head"]:
        diffs.append("%s: head %d < %d" % (where, a["head"], b["head"]))
    for kind in ("body", "calls"):
        for k in sorted(set(a[kind]) | set(b[kind]), key=str):
            if a[kind].get(k) != b[kind].get(k):
                diffs.append("%s: %s %s: %s != %s" % (
                    where, kind, k, a[kind].get(k), b[kind].get(k)))
    for k in sorted(set(a["inlined"]) | set(b["inlined"]), key=str):
        if k not in a["inlined"] or k not in b["inlined"]:
            diffs.append("%s: inlined %s only in %s" % (
                where, k, "ours" if k in a["inlined"] else "profgen"))
            continue
        compare("%s @ %s" % (where, k), a["inlined"][k], b["inlined"][k],
                False, diffs)


def count_features(funcs):
    """Inline sites, discriminators, line-0 offsets, call targets."""
    n = {"inlined": 0, "disc": 0, "line0": 0, "calls": 0}
    def walk(f):
        n["inlined"] += len(f["inlined"])
        n["calls"] += len(f["calls"])
        for (off, disc) in f["body"]:
            n["disc"] += disc != 0
            n["line0"] += off >= 0x8000
        for g in f["inlined"].values():
            walk(g)
    for f in funcs.values():
        walk(f)
    return n


def main():
    ours, theirs = parse(sys.argv[1]), parse(sys.argv[2])
    diffs = []
    for name in sorted(set(ours) | set(theirs)):
        if name not in ours or name not in theirs:
            diffs.append("%s: only in %s" % (
                name, "ours" if name in ours else "profgen"))
            continue
        compare(name, ours[name], theirs[name], True, diffs)
    if diffs:
        print("\n".join(diffs))
        sys.exit(1)
    n = count_features(ours)
    print("same in %d functions: %d inline sites, %d call targets, "
          "%d discriminated locations, %d line-0 locations" % (
              len(ours), n["inlined"], n["calls"], n["disc"], n["line0"]))


main()
