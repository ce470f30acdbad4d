#!/usr/bin/env python3
"""Writes one set of time-trace events in three layouts, to check that the
reader gives the same profile whichever way it cuts the array in pieces:
compact as clang writes it (`},{` between events, and inside some strings
and nested arrays), spaced (no `},{` anywhere outside strings: the byte
scan), and with a large member before the array (the whole-document path).

usage: make-layouts.py OUTDIR
"""
import json, os, random, sys

out = sys.argv[1]
rng = random.Random(17)
events = [{"pid": 1, "tid": 1, "ph": "X", "ts": 0, "dur": 10_000_000,
           "name": "ExecuteCompiler"}]
t = 10
while t < 9_900_000:
    d = rng.randint(1, 400)
    kind = rng.choice(["Source", "InstantiateClass", "ParseClass", "RunPass"])
    detail = "T<%d>" % rng.randint(0, 3000)
    if rng.random() < 0.02:
        detail = 'tricky },{"name":"x"} \\" },{ %d' % t
    e = {"pid": 1, "tid": 1, "ph": "X", "ts": t, "dur": d, "name": kind,
         "args": {"detail": detail}}
    if rng.random() < 0.01:
        e["args"]["list"] = [{"a": 1}, {"b": 2}]
    events.append(e)
    t += d + rng.randint(0, 3)
events.append({"pid": 1, "tid": 2, "ph": "X", "ts": 0, "dur": 1,
               "name": "Total Source", "args": {"count": 1, "avg ms": 0}})

def write(name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)

compact = ",".join(json.dumps(e, separators=(",", ":")) for e in events)
write("compact.json", '{"traceEvents":[%s],"beginningOfTime":1700000000000000}' % compact)
spaced = ",\n  ".join(json.dumps(e, separators=(", ", ": ")) for e in events)
write("spaced.json", '{"traceEvents": [\n  %s\n],\n"beginningOfTime": 1700000000000000}\n' % spaced)
write("whole.json", '{"otherData":{"traceEvents":0,"pad":"%s"},"traceEvents":[%s],"beginningOfTime":1700000000000000}' % ("x" * 70000, compact))
