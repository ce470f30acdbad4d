#!/usr/bin/env python3
"""Checks profkit's build report against ClangBuildAnalyzer's.

usage: compare-with-cba.py CBA_ANALYZE_OUTPUT PROFKIT_REPORT_JSON

CBA_ANALYZE_OUTPUT is the text of `ClangBuildAnalyzer --analyze` (run with
an .ini that raises every limit to see every row); PROFKIT_REPORT_JSON is
`profkit-opt DIR -output-format='build-report<format=json>'` on the same
traces. Every row ClangBuildAnalyzer prints must be in profkit's report with
the same count and the same time within 1 ms (it truncates to the ms,
profkit keeps the us). Prints one line per section and the rows that
differ; exits 1 if any does.
"""
import json
import re
import subprocess
import sys


def parse_cba(path):
    sec = None
    out = {'summary': {}, 'files_frontend': [], 'files_backend': [],
           'templates': [], 'template_sets': [], 'functions': [],
           'function_sets': [], 'headers': []}
    names = {
        'Files that took longest to parse': 'files_frontend',
        'Files that took longest to codegen': 'files_backend',
        'Templates that took longest': 'templates',
        'Template sets that took longest': 'template_sets',
        'Functions that took longest': 'functions',
        'Function sets that took longest': 'function_sets',
        'Expensive headers': 'headers',
        'Time summary': 'summary',
    }
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('**** '):
            sec = next((v for k, v in names.items() if line[5:].startswith(k)), None)
            continue
        if not line.strip() or sec is None:
            continue
        if sec == 'summary':
            m = re.match(r'Compilation \((\d+) times\)', line)
            if m:
                out['summary']['compilations'] = int(m.group(1))
            m = re.match(r'\s*(Parsing|Codegen).*?([\d.]+) s$', line)
            if m:
                out['summary'][m.group(1)] = float(m.group(2))
            continue
        if sec.startswith('files'):
            m = re.match(r'\s*(\d+) ms: (.*)$', line)
            out[sec].append((m.group(2), int(m.group(1)), None))
        elif sec in ('templates', 'template_sets', 'function_sets'):
            m = re.match(r'\s*(\d+) ms: (.*) \((\d+) times, avg \d+ ms\)$', line)
            if m.group(2) == '' and m.group(3) == '0':
                continue  # Filler rows when the limit passes the row count.
            out[sec].append((m.group(2), int(m.group(1)), int(m.group(3))))
        elif sec == 'functions':
            m = re.match(r'\s*(\d+) ms: (.*) \(([^()]*)\)$', line)
            out[sec].append(((m.group(2), m.group(3)), int(m.group(1)), None))
        elif sec == 'headers':
            m = re.match(r'(\d+) ms: (.*) \(included (\d+) times, avg \d+ ms\), included via:$', line)
            if m:
                out[sec].append([m.group(2), int(m.group(1)), int(m.group(3)), []])
                continue
            m = re.match(r'\s+(\d+)x: (.*)$', line)
            if m:
                out[sec][-1][3].append((m.group(2).strip(), int(m.group(1))))
    return out


def close(cba_ms, us):
    return abs(cba_ms - us / 1000.0) <= 1.0


def unmatched(pool, rows):
    """The rows (key, ms) of ClangBuildAnalyzer with no row of profkit's
    (pool: key -> [us]) of the same key and time; each of profkit's rows
    matches once."""
    bad = []
    for key, ms in rows:
        cands = pool.get(key, [])
        hit = next((i for i, us in enumerate(cands) if close(ms, us)), None)
        if hit is None:
            bad.append('cba: %d ms %s; profkit: %s' % (ms, str(key)[:160], [c / 1000 for c in cands][:3]))
        else:
            cands.pop(hit)
    return bad


def main():
    cba = parse_cba(sys.argv[1])
    pk = json.load(open(sys.argv[2]))
    ok = True

    def report(section, rows, bad):
        nonlocal ok
        print('%-4s %-15s %6d rows' % ('OK' if not bad else 'DIFF', section, rows))
        for b in bad[:10]:
            print('     ', b)
        ok &= not bad

    s = cba['summary']
    bad = []
    if s.get('compilations') != pk['compilations']:
        bad.append('compilations: cba %s, profkit %s' % (s.get('compilations'), pk['compilations']))
    for key, ms in (('Parsing', pk['frontend_ms']), ('Codegen', pk['backend_ms'])):
        if key in s and abs(s[key] - ms / 1000.0) > 0.051:
            bad.append('%s: cba %.1f s, profkit %.3f s' % (key, s[key], ms / 1000.0))
    report('summary', 3, bad)

    for sec, key in (('files_frontend', 'file'), ('files_backend', 'file'),
                     ('templates', 'name'), ('template_sets', 'name'),
                     ('function_sets', 'name')):
        pool = {}
        for r in pk[sec]:
            pool.setdefault((r[key], r.get('count')), []).append(round(r['ms'] * 1000))
        report(sec, len(cba[sec]), unmatched(pool, [((n, c), ms) for n, ms, c in cba[sec]]))

    pool = {}
    for r in pk['functions']:
        pool.setdefault((r['name'], r['file']), []).append(round(r['ms'] * 1000))
    # ClangBuildAnalyzer's 2019 demangler leaves some names mangled (C++20
    # constraints, `TnN` template parameters); profkit demangles them, as
    # llvm-cxxfilt-19 does, with ClangBuildAnalyzer's `> >`.
    mangled = sorted({n for (n, f), _, _ in cba['functions'] if n.startswith('_Z')})
    if mangled:
        out = subprocess.run(['llvm-cxxfilt-19'], input='\n'.join(mangled),
                             capture_output=True, text=True).stdout.split('\n')
        spaced = {}
        for m, d in zip(mangled, out):
            t = ''
            for i, c in enumerate(d):
                t += c
                if c == '>' and d[i + 1:i + 2] == '>' and not t[:-1].endswith('operator'):
                    t += ' '
            spaced[m] = t
        print('     (%d names ClangBuildAnalyzer left mangled, compared demangled)' % len(mangled))
        cba['functions'] = [((spaced.get(n, n), f), ms, c) for (n, f), ms, c in cba['functions']]
    report('functions', len(cba['functions']),
           unmatched(pool, [(k, ms) for k, ms, _ in cba['functions']]))

    heads = {h['file']: h for h in pk['headers']}
    bad = []
    for file, ms, count, chains in cba['headers']:
        h = heads.get(file)
        if not h or h['count'] != count or not close(ms, round(h['ms'] * 1000)):
            bad.append('cba: %d ms %s (%d times); profkit: %s' % (ms, file, count, h and (h['ms'], h['count'])))
            continue
        mine = {}
        for c in h['included_via']:
            names = ' '.join(p.rsplit('/', 1)[-1] for p in c['chain']) or '<direct include>'
            mine[names] = mine.get(names, 0) + c['count']
        for text, n in chains:
            if text != '...' and mine.get(text) != n:
                bad.append('%s: cba %dx via %s; profkit %s' % (file, n, text, mine.get(text)))
    report('headers', len(cba['headers']), bad)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
