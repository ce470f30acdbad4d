"""Writes the committed gmon.out fixtures (run from this directory):

  python3 make_fixtures.py

The fixture-*.o objects are fixture.c built with
  clang-19 --target=i386-linux-gnu -O0 -c fixture.c -o fixture-i386.o
  clang-19 --target=s390x-linux-gnu -O0 -c fixture.c -o fixture-s390x.o
  clang-19 --target=x86_64-linux-gnu -O0 -c fixture.c -o fixture-x86_64.o
(leaf, middle, top at 0x0, 0x10, 0x60 for i386; 0x0, 0x30, 0x80 for s390x;
0x0, 0x10, 0x40 for x86_64).
The hostile-* files are malformed on purpose.
"""
import struct


def hist(e, a, low, high, bins, rate=100, dim=b"seconds", abbrev=b"s"):
    f = e + ("I" if a == 4 else "Q")
    return (b"\0" + struct.pack(e + ("II" if a == 4 else "QQ"), low, high)
            + struct.pack(e + "II", len(bins), rate) + dim.ljust(15, b"\0")
            + abbrev + struct.pack(e + "%dH" % len(bins), *bins))


def arc(e, a, frm, slf, count):
    return b"\1" + struct.pack(e + ("III" if a == 4 else "QQI"), frm, slf, count)


def header(e, version=1):
    return b"gmon" + struct.pack(e + "I", version) + b"\0" * 12


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


# 32-bit little-endian (i386): two histogram records over the same range
# (gprof sums them: bin 1 = 80000), arcs before and after.
bins = [0] * 34
bins[1], bins[5], bins[25] = 40000, 7, 2
write("gnu32le.gmon",
      header("<") + arc("<", 4, 0x18, 0x3, 1000) + hist("<", 4, 0, 0x88, bins)
      + hist("<", 4, 0, 0x88, [40000 if i == 1 else 0 for i in range(34)])
      + arc("<", 4, 0x68, 0x13, 3))

# 64-bit big-endian (s390x): a histogram in cycles, arcs, a basic-block
# record.
bins = [0] * 45
bins[2], bins[13], bins[33] = 11, 12, 13
write("gnu64be.gmon",
      header(">") + hist(">", 8, 0, 0xb4, bins, rate=1, dim=b"cycles",
                         abbrev=b"c")
      + arc(">", 8, 0x40, 0x4, 70000) + arc(">", 8, 0x90, 0x34, 5)
      + b"\2" + struct.pack(">I", 2) + struct.pack(">QQQQ", 0x8, 9, 0x38, 10))

# 4.4BSD, 64-bit little-endian, profrate 1000, an arc count over 2^32.
bins = [0] * 34
bins[1] = 70000 - 65535
write("bsd44.gmon",
      struct.pack("<QQII", 0, 0x88, 40 + 2 * 34, 0x00051879)
      + struct.pack("<I", 1000) + b"\0" * 12 + struct.pack("<34H", *bins)
      + struct.pack("<QQQ", 0x18, 0x3, 5000000000)
      + struct.pack("<QQQ", 0x68, 0x13, 3))

# Old BSD, 64-bit little-endian: no version, no rate.
bins = [0] * 34
bins[5] = 9
write("oldbsd.gmon",
      struct.pack("<QQI", 0, 0x88, 20 + 2 * 34) + struct.pack("<34H", *bins)
      + struct.pack("<QQQ", 0x18, 0x3, 77))

# Hostile files.
ok = header("<") + hist("<", 8, 0, 0x88, [1] * 34)
write("hostile-magic.gmon", b"gmoX" + ok[4:])
write("hostile-version.gmon", header("<", 7) + ok[20:])
write("hostile-hist-header.gmon", ok[:20 + 30])
write("hostile-bins.gmon", ok[:-10])
write("hostile-arc.gmon", ok + arc("<", 8, 0x18, 0x3, 1)[:-2])
write("hostile-bb.gmon",
      ok + b"\2" + struct.pack("<I", 3) + struct.pack("<QQ", 0x8, 1))
write("hostile-huge.gmon",
      header("<") + b"\0" + struct.pack("<QQII", 0, 0x88, 0xffffffff, 100)
      + b"seconds".ljust(15, b"\0") + b"s" + b"\0\0")
write("hostile-tag.gmon", ok + b"\x07")
write("hostile-overlap.gmon", ok + hist("<", 8, 0x40, 0xc8, [1] * 34))
write("hostile-dimension.gmon",
      ok + hist("<", 8, 0x100, 0x188, [1] * 34, dim=b"cycles"))
write("hostile-short.gmon", b"gmon\1\0\0")
