#!/usr/bin/env python3
"""Packs a webgrind preprocessed file (versions 4-7) from a JSON description.

Usage: mkwebgrind.py SPEC.json OUT [VERSION]

  {"version": 7,
   "functions": [{"line": 1, "self": 10, "incl": 110, "inv": 1,
                  "from": [[fn, line, calls, cost], ...],
                  "sub": [[fn, line, calls, cost], ...],
                  "file": "a.c", "name": "main"}, ...],
   "headers": ["version: 1", "events: Ir", ...]}

v6 drops "line", v5 also "sub". v4 records are
  {"self":, "incl":, "call_cost":, "file":, "name":,
   "invocations": [[self, incl_self, cf_cost, cf_fn, cf_inv, cf_line,
                    [[fn, inv, line, cost], ...]], ...]}
with the sub-call records placed after the function records, as the v4
preprocessor did. Optional "header_address" and "addresses" override the
computed values (for hostile files); "truncate" cuts the file to N bytes.
"""
import json
import struct
import sys


def u32(*v):
    return struct.pack('<%dI' % len(v), *[x & 0xFFFFFFFF for x in v])


def record(version, f, subcall_addr):
    if version == 4:
        out = u32(f['self'], f['incl'], f['call_cost'], len(f['invocations']))
        for inv in f['invocations']:
            subs = inv[6]
            addr = subcall_addr[0] if subs else 0
            subcall_addr[0] += 16 * len(subs)
            out += u32(*inv[:6], len(subs), addr)
    else:
        fixed = [f['self'], f['incl'], f['inv'], len(f['from'])]
        if version >= 6:
            fixed.append(len(f['sub']))
        if version == 7:
            fixed.insert(0, f['line'])
        out = u32(*fixed)
        for c in f['from']:
            out += u32(*c)
        if version >= 6:
            for c in f['sub']:
                out += u32(*c)
    return out + f['file'].encode() + b'\n' + f['name'].encode() + b'\n'


def main():
    spec = json.load(open(sys.argv[1]))
    v = int(sys.argv[3]) if len(sys.argv) > 3 else spec['version']
    funcs = spec['functions']
    start = 12 + 4 * len(funcs)
    # Sizes first (v4 sub-call addresses depend on where the records end).
    sizes = [len(record(v, f, [0])) for f in funcs]
    addrs, pos = [], start
    for s in sizes:
        addrs.append(pos)
        pos += s
    sub_at = [pos]
    body = b''.join(record(v, f, sub_at) for f in funcs)
    if v == 4:
        for f in funcs:
            for inv in f['invocations']:
                for sc in inv[6]:
                    body += u32(*sc)
    hdr_addr = start + len(body)
    hdr_addr = spec.get('header_address', hdr_addr)
    addrs = spec.get('addresses', addrs)
    count = spec.get('function_count', len(funcs))
    data = u32(v, hdr_addr, count) + u32(*addrs) + body
    data += ''.join(h + '\n' for h in spec.get('headers', [])).encode()
    if 'truncate' in spec:
        data = data[:spec['truncate']]
    open(sys.argv[2], 'wb').write(data)


main()
