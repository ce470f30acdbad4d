"""Prints the FileCheck lines that profkit-opt -print-ir (or, with
--annotate, callgrind_annotate) must show for the last LINES lines of a
.ninja_log, joined with the given time traces (build-join), computed from
the log and the traces' JSON on their own."""
import argparse
import json
import os

ap = argparse.ArgumentParser()
ap.add_argument("log")
ap.add_argument("lines", type=int)
ap.add_argument("traces", nargs="*")
ap.add_argument("--annotate", action="store_true")
args = ap.parse_args()

base = os.path.dirname(args.log)
edges = {}  # (start, end, hash) -> [outputs]
for line in open(args.log).read().splitlines()[-args.lines:]:
    start, end, _, out, h = line.split("\t")
    edges.setdefault((int(start), int(end), h), []).append(
        os.path.normpath(os.path.join(base, out)))

# ExecuteCompiler time per object (X.json is the trace of X.o).
trace = {}
for t in args.traces:
    dur = sum(e["dur"] for e in json.load(open(t))["traceEvents"]
              if e.get("name") == "ExecuteCompiler" and e.get("ph") == "X")
    trace[os.path.normpath(t[:-len(".json")] + ".o")] = dur

# Lanes: by start, the lowest lane free at the start.
lane_end, lanes = [], {}
for key in sorted(edges, key=lambda k: k[0]):
    free = [i for i, e in enumerate(lane_end) if e <= key[0]]
    lane = min(free) if free else len(lane_end)
    if lane == len(lane_end):
        lane_end.append(0)
    lane_end[lane] = key[1]
    lanes[key] = lane

rows, total = [], 0
for key, outs in edges.items():
    name, us = outs[0], (key[1] - key[0]) * 1000
    joined = trace.pop(name, None)
    self_us = us if joined is None else max(0, us - joined)
    total += self_us + (joined or 0)
    rows.append((name, key, us, joined, self_us))
total += sum(trace.values())  # Traces without an edge keep their time.

if args.annotate:
    print("CHECK: {:,} (100.0%)  PROGRAM TOTALS".format(total))
    for name, key, us, joined, self_us in rows:
        if self_us:  # callgrind_annotate leaves out functions of no cost.
            print("CHECK-DAG: {:,} ({{{{.*}}}})  ninja:{} [{}]".format(
                self_us, name, name))
        print("INCL-DAG: {:,} ({{{{.*}}}})  ninja:{} [{}]".format(
            us if joined is None else max(us, joined), name, name))
    raise SystemExit
print("CHECK: totals: {}".format(total))
for name, key, us, joined, self_us in sorted(rows, key=lambda r: r[1][0]):
    print('CHECK-DAG: interval "{0}" ob="{0}" fl="ninja" thread={1} '
          'start={2} duration={3}'.format(name, lanes[key], key[0] * 1000, us))
for name, key, us, joined, self_us in sorted(rows):
    print('CHECK: function "{0}" ob="{0}" fl="ninja"'.format(name))
    if joined is not None:
        print('CHECK-NEXT: call "ninja" 0 -> "ExecuteCompiler" ob="{0}" '
              'fl="ExecuteCompiler" target 0 : calls=1 inclusive {1}'.format(
                  name, joined))
    print('CHECK-NEXT: self "ninja" 0 : {}'.format(self_us))
