#!/usr/bin/env python3
"""patch.py IN OUT [OFFSET=VALUE]... [truncate=N]: copies a binary file,
overwriting little-endian uint32 words at byte offsets and/or cutting it to
N bytes."""
import struct
import sys

d = bytearray(open(sys.argv[1], 'rb').read())
for arg in sys.argv[3:]:
    k, v = arg.split('=')
    if k == 'truncate':
        d = d[:int(v, 0)]
    else:
        struct.pack_into('<I', d, int(k, 0), int(v, 0))
open(sys.argv[2], 'wb').write(bytes(d))
