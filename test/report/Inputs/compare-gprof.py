#!/usr/bin/env python3
"""Compares profkit's report of a gmon.out with gprof's flat profile and
call graph. Exits 1 on any difference.

usage: compare-gprof.py [--counts-only] FLAT CALL_GRAPH REPORT_JSON REPORT_TEXT
  FLAT        gprof -b -p      CALL_GRAPH  gprof -b -q
  REPORT_JSON -output-format=report<format=json>
  REPORT_TEXT -output-format=report<top=1000;callers=0>

gprof prints seconds rounded to 0.01 (a sample at 100 Hz) and splits a
histogram bin that straddles two functions into fractions; profkit keeps
whole microseconds. So a time may differ by one sample, a sum of two
printed times (self + children) by two, a time per call by as much divided
by the calls. Counts are equal. gprof has no symbols for PLT stubs and
charges their samples to `_init`, the symbol before them; profkit names
them `NAME@plt`, as objdump does, so their time is compared as `_init`'s.

- Flat profile, every function: its non-recursive calls (JSON `calls` less
  `self_calls`) and self time; the text's self seconds, its self and total
  time per call in gprof's unit (total only outside call cycles, where
  gprof's child time is not the cycle's).
- Call graph: every function's calls column equals the text's (`1+2000`);
  every arc (child line) has the JSON callee's count and, when gprof gives
  times, its self + children equals the JSON callee's inclusive time.

--counts-only compares the counts and names alone, for a profile just made:
which function a sample lands in (a bin that straddles two, a PLT stub) and
how many samples a run gets are chance, and a gate must not fail by chance.
"""
import json
import re
import sys

FLAT = re.compile(r"^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)"
                  r"(?:\s+(\d+)\s+([\d.]+)\s+([\d.]+))?\s+(\S.*?)\s*$")
PRIMARY = re.compile(r"^\[\d+\]\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+"
                     r"(?:([\d+]+)\s+)?(.+?) \[\d+\]$")
CHILD_TIMED = re.compile(r"^\s+([\d.]+)\s+([\d.]+)\s+(\d+)/\d+\s+(.+?) \[\d+\]$")
CHILD_COUNT = re.compile(r"^\s+(\d+)\s+(.+?) \[\d+\]$")
TEXT_ROW = re.compile(r"^\s*([\d,.]+)\s+[\d.]+%\s+([\d,.]+)\s+[\d.]+%\s+"
                      r"(\d[\d,+]*)(?:\s+([\d.]+)\s+([\d.]+))?\s\s+(\S.*)$")
SCALE = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}

bad = 0
counts_only = "--counts-only" in sys.argv
if counts_only:
    sys.argv.remove("--counts-only")


def check(ok, what):
    global bad
    print(("ok  " if ok else "BAD ") + what)
    bad += not ok


def gprof_flat(path):
    text = open(path).read()
    per_sample = float(
        re.search(r"Each sample counts as ([\d.]+) seconds", text).group(1))
    unit = re.search(r"calls\s+(\w+)/call", text).group(1)
    rows = {}
    for line in text[text.index(" time "):].splitlines()[1:]:
        m = FLAT.match(line)
        if m:
            rows[m.group(7)] = (float(m.group(3)),
                                int(m.group(4)) if m.group(4) else 0,
                                m.group(5) and float(m.group(5)),
                                m.group(6) and float(m.group(6)))
    return per_sample, unit, rows


def gprof_graph(path):
    """{name: calls as printed}, {(caller, callee): (count, secs or None)},
    the names of cycle members."""
    called, arcs, cycle = {}, {}, set()
    name = None
    for line in open(path).read().splitlines():
        if line.startswith("-----"):
            name = None
            continue
        plain = re.sub(r"\s*<cycle \d+>", "", line).rstrip()
        m = PRIMARY.match(plain)
        if m:
            name = None if "as a whole" in line else m.group(4)
            if name:
                called[name] = m.group(3) or ""
                if "<cycle" in line:
                    cycle.add(name)
            continue
        if name is None:
            continue  # Parents come before the primary line.
        m = CHILD_TIMED.match(plain)
        if m:
            arcs[(name, m.group(4))] = (int(m.group(3)),
                                        float(m.group(1)) + float(m.group(2)))
            continue
        m = CHILD_COUNT.match(plain)
        if m:
            arcs[(name, m.group(2))] = (int(m.group(1)), None)
    return called, arcs, cycle


def report_text(path):
    text = open(path).read()
    unit = re.search(r"self (\w+)/call\s+total (\w+)/call", text)
    if not re.search(r"\bself s\s+%\s+incl\. s\s+%\s+calls", text) or not unit:
        check(False, "the text's columns are not seconds and time per call")
        return None, {}
    rows = {}
    for line in text[text.index("  function\n"):].splitlines()[1:]:
        if not line:
            break
        m = TEXT_ROW.match(line)
        check(bool(m), "text row %r" % line)
        if m:
            rows[m.group(6).split("  (")[0]] = m.groups()
    return unit.group(1), rows


def fold_plt_stubs(funcs, text):
    """Adds the self time of every NAME@plt to _init's, as gprof sees it."""
    stubs = [name for name in funcs if name.endswith("@plt")]
    if not stubs:
        return
    init = funcs.setdefault("_init", {"name": "_init", "calls": 0,
                                      "self_calls": 0, "self": [0],
                                      "callees": []})
    secs = float(text.get("_init", ("0",))[0].replace(",", ""))
    for name in stubs:
        init["self"][0] += funcs.pop(name)["self"][0]
        row = text.pop(name, None)
        if row:
            secs += float(row[0].replace(",", ""))
    text["_init"] = ("%.2f" % secs, None, "0", None, None, "_init")


def main():
    per_sample, unit, flat = gprof_flat(sys.argv[1])
    called, arcs, cycle = gprof_graph(sys.argv[2])
    report = json.load(open(sys.argv[3]))
    text_unit, text = report_text(sys.argv[4])
    funcs = {}
    for f in report["functions"]:
        if f["name"] in funcs:
            check(False, "two functions named %s" % f["name"])
        funcs[f["name"]] = f
    fold_plt_stubs(funcs, text)
    if report["events"] != ["us"]:
        check(False, "events %s, not us" % report["events"])
    one = per_sample + 1e-9
    if not counts_only:
        check(text_unit == unit, "time per call in %s/call, gprof %s/call" %
              (text_unit, unit))
    for name, (secs, calls, self_pc, total_pc) in sorted(flat.items()):
        f = funcs.get(name)
        if f is None:
            check(False, "%s: not in the report" % name)
            continue
        ours = f["self"][0] / 1e6
        check(f["calls"] - f["self_calls"] == calls and
              (counts_only or abs(ours - secs) <= one),
              "%s: calls %d-%d, gprof %d; self %.6f s, gprof %.2f s" %
              (name, f["calls"], f["self_calls"], calls, ours, secs))
        row = text.get(name)
        if row is None:
            check(False, "%s: not in the text" % name)
            continue
        if counts_only:
            continue
        check(abs(float(row[0].replace(",", "")) - secs) <= one,
              "%s: text self %s s, gprof %.2f s" % (name, row[0], secs))
        if not calls:
            check(row[3] is None, "%s: no time per call" % name)
            continue
        per_call = one / calls / SCALE[unit] + 0.01
        check(abs(float(row[3]) - self_pc) <= per_call,
              "%s: text self %s %s/call, gprof %.2f" %
              (name, row[3], unit, self_pc))
        if name not in cycle:
            check(abs(float(row[4]) - total_pc) <= 2 * per_call,
                  "%s: text total %s %s/call, gprof %.2f" %
                  (name, row[4], unit, total_pc))
    for name, count in sorted(called.items()):
        row = text.get(name)
        ours = row[2].replace(",", "") if row else "0"
        check(ours == (count or "0"),
              "%s: text calls %s, gprof %s" % (name, ours, count))
    for (caller, callee), (count, secs) in sorted(arcs.items()):
        c = [c for c in funcs.get(caller, {}).get("callees", [])
             if c["name"] == callee]
        if len(c) != 1:
            check(False, "arc %s -> %s: not in the report" % (caller, callee))
            continue
        ours = c[0]["inclusive"][0] / 1e6
        check(c[0]["calls"] == count and
              (counts_only or secs is None or abs(ours - secs) <= 2 * one),
              "arc %s -> %s: calls %d, gprof %d; inclusive %.6f s, gprof %s" %
              (caller, callee, c[0]["calls"], count, ours,
               "-" if secs is None else "%.2f s" % secs))
    if not counts_only and not any(secs for secs, _, _, _ in flat.values()):
        check(False, "gprof has no time: nothing was compared")
    sys.exit(1 if bad else 0)


main()
