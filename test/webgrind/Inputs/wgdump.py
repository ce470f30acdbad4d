#!/usr/bin/env python3
"""Prints a webgrind preprocessed file of version 5, 6 or 7 as text, one item
a line, for FileCheck: the functions with their numbers and call records
(callers and callees by name), then the header lines."""
import struct
import sys

d = open(sys.argv[1], 'rb').read()


def u32(pos, n=1):
    return struct.unpack_from('<%dI' % n, d, pos)


version, hdr, count = u32(0, 3)
addrs = u32(12, count)
print('version %d functions %d' % (version, count))
fixed = {7: 6, 6: 5, 5: 4}[version]
funcs = []
for a in addrs:
    vals = list(u32(a, fixed))
    line = vals.pop(0) if version == 7 else None
    nsub = vals.pop() if version >= 6 else 0
    self_, incl, inv, nfrom = vals
    pos = a + 4 * fixed
    calls = []
    for kind, n in (('from', nfrom), ('sub', nsub)):
        for _ in range(n):
            calls.append((kind,) + u32(pos, 4))
            pos += 16
    end = d.index(b'\n', pos)
    end2 = d.index(b'\n', end + 1)
    funcs.append((line, self_, incl, inv, calls, d[pos:end].decode(),
                  d[end + 1:end2].decode()))
for i, (line, self_, incl, inv, calls, fl, fn) in enumerate(funcs):
    print('%d %s file=%s%s self=%d incl=%d inv=%d' %
          (i, fn, fl, '' if line is None else ' line=%d' % line, self_, incl,
           inv))
    for kind, nr, ln, cnt, cost in calls:
        print('  %s %s line=%d calls=%d cost=%d' %
              (kind, funcs[nr][6], ln, cnt, cost))
print('headers')
for h in d[hdr:].split(b'\n'):
    if h:
        print('  ' + h.decode())
