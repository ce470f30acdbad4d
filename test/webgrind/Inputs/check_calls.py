#!/usr/bin/env python3
"""check_calls.py ANNOTATE_SELF ANNOTATE_INCL WGDUMP: checks the webgrind
file of calls.c (decoded by wgdump.py) against callgrind_annotate's
per-function self and inclusive costs for the non-recursive functions, and
against values computed by hand from the call records for the recursive ones.
Prints one line per check; exits 1 on any mismatch."""
import re
import sys

FUNC = re.compile(r'^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S+):(\S+)')


def annotate(path):
    out = {}
    for line in open(path):
        m = FUNC.match(line)
        if m:
            out[m.group(3)] = int(m.group(1).replace(',', ''))
    return out


def dump(path):
    funcs, cur = {}, None
    for line in open(path):
        m = re.match(r'^\d+ (\S+) file=\S* line=\d+ self=(\d+) incl=(\d+) '
                     r'inv=(\d+)', line)
        if m:
            cur = funcs.setdefault(m.group(1), {
                'self': int(m.group(2)), 'incl': int(m.group(3)),
                'inv': int(m.group(4)), 'from': [], 'sub': []})
            continue
        m = re.match(r'^  (from|sub) (\S+) line=\d+ calls=(\d+) cost=(\d+)',
                     line)
        if m and cur is not None:
            cur[m.group(1)].append((m.group(2), int(m.group(3)),
                                    int(m.group(4))))
    return funcs


self_, incl, wg = annotate(sys.argv[1]), annotate(sys.argv[2]), dump(sys.argv[3])
bad = 0


def check(what, got, want):
    global bad
    ok = got == want
    bad += not ok
    print('%s %s: %d%s' % ('OK' if ok else 'MISMATCH', what, got,
                           '' if ok else ' (expected %d)' % want))


for name in ('main', 'work', 'leaf', 'is_even', 'is_odd', 'fact'):
    check(name + ' self', wg[name]['self'], self_[name])
    check(name + ' inclusive', wg[name]['incl'], incl[name])


def arc(caller, callee):
    return sum(c for f, n, c in wg[caller]['sub'] if f == callee)


# Direct recursion: fact'2 is entered once, from fact; everything below it
# is fact'2 itself.
check("fact'2 inclusive", wg["fact'2"]['incl'], arc('fact', "fact'2"))
check("fact'2 inclusive = self", wg["fact'2"]['incl'], wg["fact'2"]['self'])
check("fact'2 invocations", wg["fact'2"]['inv'], 11)
# Mutual recursion: the cycle is_even'2 <-> is_odd'2 is entered once, from
# is_odd, and calls nothing outside: both get the cycle's self cost.
cycle = wg["is_even'2"]['self'] + wg["is_odd'2"]['self']
check("is_even'2 inclusive", wg["is_even'2"]['incl'], cycle)
check("is_odd'2 inclusive", wg["is_odd'2"]['incl'], cycle)
check("cycle entered", arc('is_odd', "is_even'2"), cycle)
check("is_even'2 invocations", wg["is_even'2"]['inv'], 15)
# callgrind_annotate counts the nested calls again.
check("annotate's fact'2 exceeds ours",
      int(incl["fact'2"] > wg["fact'2"]['incl']), 1)
sys.exit(1 if bad else 0)
