#!/usr/bin/env python3
"""Compares the inclusive cost of profkit's relocated call rows (in us) with
gprof's call graph, and checks that the shares add up exactly.

1. Every arc gprof prints under a function (a child line) with times: the
   arc's self + children seconds equal the inclusive time profkit gave the
   calls between the two functions, within two samples (gprof prints two
   columns rounded to 0.01 s; a bin straddling two functions is split into
   fractions by gprof, into whole microseconds by profkit).
2. Calls gprof shows with a count only (inside a cycle, direct recursion)
   carry the time of their cycle (of the function, for recursion) split by
   count: together they equal gprof's `<cycle N as a whole>` self +
   children (the function's, for recursion), and none is 0 when that is not.
3. Exactly, in profkit's own numbers: a function outside cycles that has
   callers gets, over its incoming calls from other functions, its self time
   plus what its outgoing calls to other functions carry, so a viewer that
   sums the incoming calls (KCachegrind) never shows less than self.
Every gprof arc must be there with its count.

usage: check_inclusive.py GPROF_B_OUTPUT PROFKIT_IR (after strip-lines)
"""
import os
import re
import sys
from collections import defaultdict

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ir_rows import function_rows  # noqa: E402

PRIMARY = re.compile(
    r"^\[\d+\]\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+(?:[\d+]+\s+)?(.+?) \[\d+\]$")


def gprof_graph(path):
    """Per-sample seconds, arcs {(caller, callee): (count, seconds or None)},
    cycle times {cycle number: seconds}, members {name: cycle number} and
    times {name: self + children seconds}."""
    text = open(path).read()
    per_sample = float(
        re.search(r"Each sample counts as ([\d.]+) seconds", text).group(1))
    graph = text[text.index("Call graph"):]
    arcs, cycles, members, times = {}, {}, {}, {}
    name = None
    for line in graph.splitlines():
        if line.startswith("-----"):
            name = None
            continue
        cycle = re.search(r"<cycle (\d+)", line)
        plain = re.sub(r"\s*<cycle \d+>", "", line).rstrip()
        m = PRIMARY.match(plain)
        if m:
            secs = float(m.group(1)) + float(m.group(2))
            if "as a whole" in m.group(3):
                cycles[int(cycle.group(1))] = secs
                name = None
            else:
                name = m.group(3)
                times[name] = secs
                if cycle:
                    members[name] = int(cycle.group(1))
            continue
        if name is None:
            continue  # Parent lines come before the primary line.
        m = re.match(r"^\s+([\d.]+)\s+([\d.]+)\s+(\d+)/\d+\s+(.+?) \[\d+\]$",
                     plain)
        if m:
            arcs[(name, m.group(4))] = (int(m.group(3)),
                                        float(m.group(1)) + float(m.group(2)))
            continue
        m = re.match(r"^\s+(\d+)\s+(.+?) \[\d+\]$", plain)
        if m:
            arcs[(name, m.group(2))] = (int(m.group(1)), None)
    return per_sample, arcs, cycles, members, times


def profkit_ir(path):
    calls = defaultdict(lambda: [0, 0])
    self_us = defaultdict(int)
    for fn, line in function_rows(path):
        m = re.match(r'^    call .* -> "([^"]*)".*: calls=(\d+) inclusive (\d+)',
                     line)
        if m:
            c = calls[(fn, m.group(1))]
            c[0] += int(m.group(2))
            c[1] += int(m.group(3))
        m = re.match(r'^    self .* : (\d+)$', line)
        if m:
            self_us[fn] += int(m.group(1))
    return calls, self_us


def main():
    per_sample, want, cycles, members, times = gprof_graph(sys.argv[1])
    got, self_us = profkit_ir(sys.argv[2])
    tolerance = 2 * per_sample + 1e-9
    bad = 0
    inside = defaultdict(int)  # cycle number or function -> profkit seconds
    for arc, (count, secs) in sorted(want.items()):
        ours = got.get(arc)
        if ours is None:
            print("missing arc %s -> %s" % arc)
            bad += 1
            continue
        ours_secs = ours[1] / 1e6
        if secs is None:
            group = members.get(arc[1], arc[1])
            inside[group] += ours_secs
            ok = ours[0] == count
            print("%s %s -> %s: calls %d/%d, inclusive %.4f s (inside %s)" %
                  ("ok " if ok else "BAD", arc[0], arc[1], ours[0], count,
                   ours_secs, group))
        else:
            ok = ours[0] == count and abs(ours_secs - secs) <= tolerance
            print("%s %s -> %s: calls %d/%d, inclusive %.4f s, gprof %.2f s" %
                  ("ok " if ok else "BAD", arc[0], arc[1], ours[0], count,
                   ours_secs, secs))
        bad += not ok
    for group, ours_secs in sorted(inside.items(), key=str):
        gprof_secs = cycles[group] if isinstance(group, int) else times[group]
        ok = abs(ours_secs - gprof_secs) <= tolerance and (
            ours_secs > 0 or gprof_secs == 0)
        print("%s calls inside %s: %.4f s, gprof %.2f s" %
              ("ok " if ok else "BAD", group, ours_secs, gprof_secs))
        bad += not ok
    # 3. Exact sums outside cycles.
    callers = defaultdict(int)
    callees = defaultdict(int)
    for (caller, callee), (_, us) in got.items():
        if caller != callee:
            callers[callee] += us
            callees[caller] += us
    for fn in sorted(callers):
        if fn in members:
            continue
        ok = callers[fn] == self_us[fn] + callees[fn]
        if not ok:
            print("BAD %s: incoming calls carry %d us, self %d + outgoing %d"
                  % (fn, callers[fn], self_us[fn], callees[fn]))
        bad += not ok
    if not any(secs for _, secs in want.values()):
        print("gprof propagated no time: nothing was compared")
        bad += 1
    sys.exit(1 if bad else 0)


main()
