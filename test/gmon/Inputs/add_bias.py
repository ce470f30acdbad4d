#!/usr/bin/env python3
"""add_bias.py IN OUT BIAS: rewrite a 64-bit little-endian GNU gmon.out as if
the program had been loaded at BIAS (as glibc before 2.27 wrote PIE
profiles): BIAS is added to every histogram bound, arc end and block
address."""
import struct
import sys

src, dst, bias = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
data = open(src, "rb").read()
out = bytearray(data[:20])  # "gmon", version, spare
pos = 20
while pos < len(data):
    tag = data[pos]
    out.append(tag)
    pos += 1
    if tag == 0:  # histogram: low, high, bins, rate, dimension, abbrev, bins
        low, high, nbins = struct.unpack_from("<QQI", data, pos)
        out += struct.pack("<QQ", low + bias, high + bias)
        size = 16 + 4 + 4 + 15 + 1 + 2 * nbins
        out += data[pos + 16:pos + size]
        pos += size
    elif tag == 1:  # arc: from, self, count
        frm, slf, count = struct.unpack_from("<QQI", data, pos)
        out += struct.pack("<QQI", frm + bias, slf + bias, count)
        pos += 20
    elif tag == 2:  # basic-block counts: n, then (address, count) pairs
        (n,) = struct.unpack_from("<I", data, pos)
        out += data[pos:pos + 4]
        pos += 4
        for _ in range(n):
            addr, count = struct.unpack_from("<QQ", data, pos)
            out += struct.pack("<QQ", addr + bias, count)
            pos += 16
    else:
        sys.exit("unknown record tag %d at offset %d" % (tag, pos - 1))
open(dst, "wb").write(bytes(out))
