#!/usr/bin/env python3
"""Compares the inclusive cost of profkit's relocated call rows with gprof's
call graph: for every arc gprof prints under a function (a child line), the
arc's self + children seconds must equal the inclusive samples profkit gave
the calls between the two functions, times the seconds per sample, within
two samples: gprof prints two columns rounded to 0.01 s, profkit rounds to
whole samples, and a bin straddling two functions is split into fractions by
gprof but into whole samples by profkit.
Calls inside a cycle and direct recursion carry nothing in gprof (count
only), so they must carry 0. Every gprof arc must be there with its count.

usage: check_inclusive.py GPROF_B_OUTPUT PROFKIT_IR (after strip-lines)
"""
import os
import re
import sys
from collections import defaultdict

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ir_rows import function_rows  # noqa: E402


def gprof_arcs(path):
    text = open(path).read()
    m = re.search(r"Each sample counts as ([\d.]+) seconds", text)
    per_sample = float(m.group(1))
    graph = text[text.index("Call graph"):]
    arcs = {}
    name = None
    for line in graph.splitlines():
        if line.startswith("-----"):
            name = None
            continue
        line = re.sub(r"\s*<cycle \d+>", "", line).rstrip()
        m = re.match(r"^\[\d+\]\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(?:[\d+]+\s+)?(.+?) \[\d+\]$", line)
        if m:
            name = None if "as a whole" in m.group(1) else m.group(1)
            continue
        if name is None:
            continue  # Parent lines come before the primary line.
        m = re.match(r"^\s+([\d.]+)\s+([\d.]+)\s+(\d+)/\d+\s+(.+?) \[\d+\]$", line)
        if m:
            arcs[(name, m.group(4))] = (int(m.group(3)),
                                        float(m.group(1)) + float(m.group(2)))
            continue
        m = re.match(r"^\s+(\d+)\s+(.+?) \[\d+\]$", line)
        if m:
            arcs[(name, m.group(2))] = (int(m.group(1)), 0.0)
    return per_sample, arcs


def profkit_calls(path):
    calls = defaultdict(lambda: [0, 0])
    for fn, line in function_rows(path):
        m = re.match(r'^    call .* -> "([^"]*)".*: calls=(\d+) inclusive (\d+)', line)
        if m:
            c = calls[(fn, m.group(1))]
            c[0] += int(m.group(2))
            c[1] += int(m.group(3))
    return calls


def main():
    per_sample, want = gprof_arcs(sys.argv[1])
    got = profkit_calls(sys.argv[2])
    bad = 0
    for arc, (count, secs) in sorted(want.items()):
        ours = got.get(arc)
        if ours is None:
            print("missing arc %s -> %s" % arc)
            bad += 1
            continue
        ours_secs = ours[1] * per_sample
        ok = (ours[0] == count
              and abs(ours_secs - secs) <= 2 * per_sample + 1e-9)
        print("%s %s -> %s: calls %d/%d, inclusive %.3f s, gprof %.2f s" %
              ("ok " if ok else "BAD", arc[0], arc[1], ours[0], count,
               ours_secs, secs))
        bad += not ok
    if not any(secs for _, secs in want.values()):
        print("gprof propagated no time: nothing was compared")
        bad += 1
    sys.exit(1 if bad else 0)


main()
