#!/usr/bin/env python3
"""Checks profkit's annotated source against callgrind_annotate's.

usage: compare-source.py text|json ANNOTATE_OUTPUT REPORT [CWD]

ANNOTATE_OUTPUT is `callgrind_annotate --auto=yes --show-percs=no
--threshold=100` run in CWD (default: the current directory), which names
files under CWD relative to it. REPORT is profkit's
`report<source;source-files=N>` text, or its JSON with `lines`.

For every file callgrind_annotate annotated, every line's cost of every
event must equal profkit's (a line one shows and the other does not must
have no cost), and profkit must have annotated the same files (text) or
have lines for each of them (json). Prints the files compared, by base
name, the count of lines with cost, and the totals of the lines annotated;
exits 1 on any difference.
"""
import json
import os
import re
import sys

mode, annotate_path, report_path = sys.argv[1:4]
cwd = sys.argv[4] if len(sys.argv) > 4 else os.getcwd()


def norm(name):
    return os.path.normpath(os.path.join(cwd, name))


def num(tok):
    return 0 if tok == '.' else int(tok.replace(',', ''))


FANCY = '-' * 80
SEPARATOR = re.compile(r'^-- line (\d+) -+$')


def parse_annotate(path):
    """{file: {line: [costs]}} of the annotated files, the files not found,
    and the 'events annotated' totals."""
    lines = open(path).read().split('\n')
    files, unfound, annotated = {}, set(), None
    nevents = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r'^-- (?:Auto|User)-annotated source: (.*)$', line)
        if m:
            name = norm(m.group(1))
            costs = files.setdefault(name, {})
            header = lines[i + 2].split()  # The events shown.
            nevents = len(header)
            i += 4  # Fancy line, events, blank.
            cur, inside = None, False
            while i < len(lines) and lines[i] != FANCY:
                text = lines[i]
                i += 1
                sep = SEPARATOR.match(text)
                if sep:
                    inside = not inside
                    cur = int(sep.group(1))
                    continue
                if not text.strip() or text.startswith('@'):
                    continue
                toks = text.split(None, nevents)
                rest = toks[nevents] if len(toks) > nevents else ''
                vals = [num(t) for t in toks[:nevents]]
                bogus = re.match(r'^<bogus line (\d+)>$', rest)
                if bogus:
                    costs[int(bogus.group(1))] = vals
                    continue
                if rest.startswith('<counts for unidentified lines'):
                    costs[0] = vals
                    continue
                if rest.startswith('=> '):
                    continue  # A call from the line above.
                if not inside:
                    inside, cur = True, 1
                if any(t != '.' for t in toks[:nevents]):
                    costs[cur] = vals
                cur += 1
            continue
        if line.startswith('The following files chosen for auto-annotation'):
            i += 2
            while i < len(lines) and lines[i].strip():
                unfound.add(norm(lines[i].strip()))
                i += 1
            continue
        if line.strip().endswith('events annotated'):
            annotated = [num(t) for t in line.split()[:-2]]
        i += 1
    return files, unfound, annotated


def parse_text(path):
    """The same from profkit's text report."""
    files, unfound, annotated = {}, set(), None
    cur = None
    nevents = None
    section = None
    for text in open(path).read().split('\n'):
        m = re.match(r'^-- (.*): [\d,]+ \S+ \([\d.]+%\)$', text)
        if m:
            cur = files.setdefault(norm(m.group(1)), {})
            nevents = None
            section = 'file'
            continue
        if text.startswith('Not found: '):
            section, cur = 'unfound', None
            continue
        m = re.match(r'^The lines shown hold ([\d,]+) ', text)
        if m:
            annotated = num(m.group(1))
            continue
        if section == 'unfound':
            m = re.match(r'^\s+[\d,]+\s+[\d.]+%  (.*?)(?:  \(.*\))?$', text)
            if m:
                unfound.add(norm(m.group(1)))
            continue
        if cur is None or not text.strip() or text.startswith('--'):
            continue
        toks = text.split()
        if nevents is None:
            if toks[-2:] == ['line', 'source']:
                nevents = len(toks) - 3  # Events, %, line, source.
            continue
        if len(toks) <= nevents or not re.match(r'^([\d,]+|\.)$', toks[0]):
            continue  # A note or warning.
        vals = [num(t) for t in toks[:nevents]]
        rest = toks[nevents:]
        if rest and rest[0].endswith('%'):
            rest = rest[1:]
        if rest and rest[0] == '*':
            rest = rest[1:]
        if toks[0] != '.':
            cur[int(rest[0])] = vals
    return files, unfound, annotated


def parse_json(path):
    report = json.load(open(path))
    files = {}
    for entry in report['lines']:
        files.setdefault(norm(entry['file']), {})[entry['line']] = \
            entry['self']
    return files


want, want_unfound, want_total = parse_annotate(annotate_path)
bad = []
if mode == 'text':
    got, got_unfound, got_total = parse_text(report_path)
    if set(got) != set(want):
        bad.append(('files annotated differ', sorted(set(got) ^ set(want))))
    if want_total is None or got_total != want_total[0]:
        bad.append(('lines annotated', want_total, got_total))
else:
    got = parse_json(report_path)
    missing = sorted(f for f in want if f not in got)
    if missing:
        bad.append(('files without lines', missing))
compared = 0
for name, lines in sorted(want.items()):
    mine = got.get(name, {})
    for line in sorted(set(lines) | set(mine)):
        a, b = lines.get(line, []), mine.get(line, [])
        width = max(len(a), len(b))
        a = a + [0] * (width - len(a))
        b = b + [0] * (width - len(b))
        if a != b:
            bad.append((name, line, a, b))
        elif any(a):
            compared += 1
print('files', ' '.join(sorted(os.path.basename(f) for f in want)))
print('lines', compared)
if mode == 'text':
    print('annotated', want_total and want_total[0], got_total)
    print('not found', len(want_unfound), len(got_unfound & want_unfound))
for b in bad[:20]:
    print('differs:', b)
sys.exit(1 if bad or not compared else 0)
