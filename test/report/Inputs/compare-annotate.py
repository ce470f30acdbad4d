#!/usr/bin/env python3
"""Checks a report's JSON against callgrind_annotate --threshold=100
--auto=no: the self cost (first event) of each function name, summed over
its objects, equals the sum of callgrind_annotate's file:function rows of that name.
callgrind_annotate lists a function once per file its code is in (inlined
code counts in the file it came from) and names the object only for the
function's own file, so rows are matched by name.

usage: compare-annotate.py ANNOTATE_OUTPUT REPORT_JSON
"""
import json, re, sys
from collections import defaultdict

report = json.load(open(sys.argv[2]))
names = {f['name'] for f in report['functions']}


def function_of(where):
    """The function of a file:function row. File names may hold colons
    (Xdebug's `php:internal`): the first split whose function the report
    has, else the first split."""
    starts = [i + 1 for i, c in enumerate(where) if c == ':']
    for i in starts:
        if where[i:] in names:
            return where[i:]
    return where[starts[0]:] if starts else where


want = defaultdict(int)
total = None
row = re.compile(r'^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[.*\])?$')
for line in open(sys.argv[1]):
    m = row.match(line.rstrip('\n'))
    if not m:
        continue
    cost, where = int(m.group(1).replace(',', '')), m.group(2)
    if where == 'PROGRAM TOTALS':
        total = cost
        continue
    want[function_of(where)] += cost
got = defaultdict(int)
for f in report['functions']:
    got[f['name']] += f['self'][0]
bad = [(k, v, got.get(k)) for k, v in want.items() if got.get(k) != v]
bad += [(k, 0, v) for k, v in got.items() if v and k not in want]
print('total', total, report['totals'][0])
print('functions', len(want))
for b in bad[:10]:
    print('differs:', b)
sys.exit(1 if bad or total != report['totals'][0] else 0)
