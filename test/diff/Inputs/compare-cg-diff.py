#!/usr/bin/env python3
"""Checks profkit-diff's JSON against valgrind's cg_diff: for every event,
each function's self change equals the sum of cg_annotate's file:function
rows of that name in cg_diff's output.

usage: compare-cg-diff.py CG_DIFF_OUTPUT PROFKIT_DIFF_JSON
"""
import json, re, subprocess, sys
from collections import defaultdict

report = json.load(open(sys.argv[2]))
row = re.compile(r'^\s*(-?[\d,]+)(?: \(\s*[\d.]+%\))?\s+(\S.*)$')
bad, checked = [], 0
for e, event in enumerate(report['events']):
    out = subprocess.run(['cg_annotate', '--auto=no', '--threshold=0',
                          '--show=' + event, sys.argv[1]],
                         capture_output=True, text=True, check=True).stdout
    want = defaultdict(int)
    section = False
    for line in out.split('\n'):
        if line.rstrip().endswith('file:function'):
            section = True
            continue
        m = row.match(line) if section else None
        if m and ':' in m.group(2):
            want[m.group(2).split(':', 1)[1]] += int(m.group(1).replace(',', ''))
    got = defaultdict(int)
    for f in report['functions']:
        got[f['name']] += f['self_delta'][e]
    for name in set(want) | set(got):
        if want.get(name, 0) != got.get(name, 0):
            bad.append((event, name, want.get(name, 0), got.get(name, 0)))
    checked += 1
print('events checked', checked)
for b in bad[:10]:
    print('differs:', b)
sys.exit(1 if bad else 0)
