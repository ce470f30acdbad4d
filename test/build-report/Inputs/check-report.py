#!/usr/bin/env python3
"""Computes ClangBuildAnalyzer's numbers from the time traces under a
directory, as docs/BuildProfiling.md states its rules (its tree of ten kinds
of events, b/e pairs, lexical paths, outermost template sets, include
chains), and checks profkit's JSON build report against them: every row
equal, times to the us.

usage: check-report.py TRACE_DIR REPORT_JSON CXXFILT
"""
import json, os, posixpath, subprocess, sys
from collections import defaultdict

KEPT = {'ExecuteCompiler', 'Frontend', 'Backend', 'Source', 'ParseTemplate',
        'ParseClass', 'InstantiateClass', 'InstantiateFunction', 'OptModule',
        'OptFunction'}


def nice(p):
    return posixpath.normpath(p.replace('\\', '/'))


def events_of(path):
    evs = []
    for e in json.load(open(path))['traceEvents']:
        if e.get('ph') not in ('X', 'b', 'e') or e.get('name') not in KEPT:
            continue
        args = e.get('args') or {}
        detail = next((v for v in args.values() if isinstance(v, str)), '')
        if evs and evs[-1]['ph'] == 'b':
            if e['ph'] == 'e':
                evs[-1]['ph'] = 'X'
                evs[-1]['dur'] = e['ts'] - evs[-1]['ts']
                continue
            evs.pop()
        evs.append(dict(ph=e['ph'], name=e['name'], ts=e['ts'],
                        dur=e.get('dur', 0), detail=detail))
    if evs and evs[-1]['ph'] == 'b':
        evs.pop()
    order = sorted(range(len(evs)), key=lambda i: (evs[i]['ts'], -evs[i]['dur'], -i))
    stack = []
    for i in order:
        e = evs[i]
        while stack and not (e['ts'] >= evs[stack[-1]]['ts'] and
                             e['ts'] + e['dur'] <= evs[stack[-1]]['ts'] + evs[stack[-1]]['dur']):
            stack.pop()
        e['parent'] = stack[-1] if stack else None
        stack.append(i)
    return evs


def collapse(s):
    if 'operator' in s:
        return s
    out, i = '', 0
    while True:
        lt = s.find('<', i)
        if lt < 0:
            return out + s[i:]
        out += s[i:lt + 1] + '$'
        depth, j = 1, lt + 1
        while j < len(s) and depth:
            depth += {'<': 1, '>': -1}.get(s[j], 0)
            j += 1
        if depth:
            return s
        i = j - 1


def is_header(p):
    base = p.rsplit('/', 1)[-1]
    if '.' not in base:
        return True
    ext = base.rsplit('.', 1)[1]
    return ext[:1] in ('h', 'H', 'i', 'I')


def main():
    tdir, report, cxxfilt = sys.argv[1:4]
    files = sorted(os.path.join(r, f) for r, ds, fs in os.walk(tdir)
                   for f in fs if f.endswith('.json'))
    want = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    chains = defaultdict(lambda: defaultdict(int))
    fe = be = comps = 0
    mangled = set()
    per_file = []
    for f in files:
        with open(f) as h:
            if '"traceEvents"' not in h.read(4096):
                continue
        evs = events_of(f)
        obj = f[:-5] + '.o'
        name = nice(obj if os.path.exists(obj) else f)
        per_file.append((name, evs))
        mangled |= {e['detail'] for e in evs if e['name'] == 'OptFunction'}
    demangled = dict(zip(sorted(mangled), subprocess.run(
        [cxxfilt], input='\n'.join(sorted(mangled)), capture_output=True,
        text=True).stdout.split('\n')))

    def cba_style(n):
        out = ''
        for i, c in enumerate(n):
            out += c
            if c == '>' and n[i + 1:i + 2] == '>' and not out[:-1].endswith('operator'):
                out += ' '
        return out

    for name, evs in per_file:
        first_fe = None
        for e in evs:
            if e['name'] == 'Frontend':
                if first_fe is None:
                    first_fe = e
                elif e['parent'] == first_fe['parent']:
                    first_fe['dur'] += e['dur']
                    e['name'] = 'merged'
        for e in evs:
            n, d = e['name'], e['detail']
            if n == 'Frontend':
                comps += 1; fe += e['dur']; want['files_frontend'][name][0] += e['dur']
            elif n == 'Backend':
                be += e['dur']; want['files_backend'][name][0] += e['dur']
            elif n in ('InstantiateClass', 'InstantiateFunction'):
                r = want['templates'][d]; r[0] += e['dur']; r[1] += 1
                s, p, nested = collapse(d), e['parent'], False
                while p is not None:
                    a = evs[p]
                    nested |= a['name'] in ('InstantiateClass', 'InstantiateFunction') and collapse(a['detail']) == s
                    p = a['parent']
                r = want['template_sets'][s]
                if not nested:
                    r[0] += e['dur']; r[1] += 1
            elif n == 'OptFunction':
                p = e['parent']
                while p is not None and evs[p]['name'] not in ('OptModule', 'ExecuteCompiler', 'Frontend', 'Backend'):
                    p = evs[p]['parent']
                tu = nice(evs[p]['detail']) if p is not None and evs[p]['name'] == 'OptModule' else name
                want['functions'][(cba_style(demangled[d]), tu)][0] += e['dur']
            elif n == 'Source' and is_header(nice(d)):
                r = want['headers'][nice(d)]; r[0] += e['dur']; r[1] += 1
                chain, p = [], e['parent']
                while p is not None and evs[p]['name'] == 'Source' and is_header(nice(evs[p]['detail'])):
                    chain.insert(0, nice(evs[p]['detail'])); p = evs[p]['parent']
                chains[nice(d)][tuple(chain)] += 1
    for (fn, tu), (us, _) in want['functions'].items():
        if '<' in fn:
            r = want['function_sets'][collapse(fn)]; r[0] += us; r[1] += 1

    got = json.load(open(report))
    bad = []
    def us(ms):
        return round(ms * 1000)
    for key, v in (('compilations', comps), ('frontend_ms', fe), ('backend_ms', be)):
        g = got[key] if key == 'compilations' else us(got[key])
        if g != v:
            bad.append('%s: want %s, got %s' % (key, v, g))
    for sec, key, counted in (('files_frontend', 'file', False), ('files_backend', 'file', False),
                              ('templates', 'name', True), ('template_sets', 'name', True),
                              ('function_sets', 'name', True), ('headers', 'file', True)):
        mine = {r[key]: (us(r['ms']), r['count'] if counted else 0) for r in got[sec]}
        theirs = {k: (v[0], v[1] if counted else 0) for k, v in want[sec].items() if v[1] or not counted}
        if mine != theirs:
            diff = sorted(set(mine.items()) ^ set(theirs.items()))[:5]
            bad.append('%s: %d rows, want %d; differ: %s' % (sec, len(mine), len(theirs), diff))
        print('%s: %d rows' % (sec, len(theirs)))
    mine = {(r['name'], r['file']): us(r['ms']) for r in got['functions']}
    theirs = {k: v[0] for k, v in want['functions'].items()}
    if mine != theirs:
        bad.append('functions differ: %s' % sorted(set(mine.items()) ^ set(theirs.items()))[:5])
    print('functions: %d rows' % len(theirs))
    for h in got['headers']:
        mine = {tuple(c['chain']): c['count'] for c in h['included_via']}
        if mine != dict(chains[h['file']]):
            bad.append('chains of %s: got %s, want %s' % (h['file'], mine, dict(chains[h['file']])))
    print('\n'.join(bad) if bad else 'all equal')
    sys.exit(1 if bad else 0)


main()
