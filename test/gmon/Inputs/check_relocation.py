"""Checks a relocated profile (profkit-opt -print-ir) against the oracles.

  check_relocation.py IR PROG SYMBOLIZER FLAT

- every position (self rows, call sites and call targets) has the file and
  line that llvm-symbolizer gives for its address (innermost inlined frame),
  and the function that holds it is the symbol table's function there;
- the functions given samples are the ones gprof's flat profile (FLAT, from
  `gprof -b -p`) credits: all with >= 0.01 s there, none it does not list.
  gprof has no symbols for PLT stubs and credits their samples to `_init`,
  the symbol before them; profkit names them NAME@plt, as objdump does, and
  the symbolizer does not know them.
Prints a summary line; exits 1 with the differences otherwise.
"""
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ir_rows import function_rows  # noqa: E402

ir, prog, symbolizer, flat = sys.argv[1:5]
POS = r'"([^"]*)" (0x[0-9a-f]+) (\d+)'
rows = []  # (function, file, addr, line, kind)
sampled = set()
for func, line in function_rows(ir):
    m = re.match(r"    self " + POS + r" : (\d+)", line)
    if m:
        rows.append((func, m.group(1), int(m.group(2), 16), int(m.group(3)), "self"))
        if int(m.group(4)):
            sampled.add("_init" if func.endswith("@plt") else func)
        continue
    m = re.match(r"    call " + POS + r' -> "([^"]*)".* target (0x[0-9a-f]+) (\d+)', line)
    if m:
        rows.append((func, m.group(1), int(m.group(2), 16), int(m.group(3)), "call"))
        rows.append((m.group(4), None, int(m.group(5), 16), int(m.group(6)), "target"))

addrs = sorted({r[2] for r in rows})
out = subprocess.run(
    [symbolizer, "--obj=" + prog, "--inlining", "--functions=linkage"]
    + [hex(a) for a in addrs],
    capture_output=True, text=True, check=True).stdout
frames = {}
for addr, block in zip(addrs, out.strip("\n").split("\n\n")):
    lines = block.split("\n")
    frames[addr] = [(lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]

errors = []
for fn, file, addr, line, kind in rows:
    if fn.endswith("@plt"):
        continue
    inner, outer = frames[addr][0], frames[addr][-1]
    want_file, want_line = inner[1].rsplit(":", 2)[0:2]
    if file is not None and (file, line) != (want_file, int(want_line)):
        errors.append(f"{kind} {hex(addr)}: {file}:{line}, symbolizer {inner[1]}")
    # Call sites may be in code inlined into the function; the outermost
    # frame names the function itself.
    if outer[0] != fn:
        errors.append(f"{kind} {hex(addr)}: in {fn}, symbolizer {outer[0]}")

listed, sure = set(), set()
for line in open(flat):
    m = re.match(r"\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s+.*?(\S+)\s*$", line)
    if m and not line.lstrip().startswith("%"):
        listed.add(m.group(2))
        if float(m.group(1)) >= 0.01:
            sure.add(m.group(2))
if not sure <= sampled:
    errors.append(f"gprof credits {sorted(sure - sampled)}, profkit does not")
if not sampled <= listed:
    errors.append(f"profkit credits {sorted(sampled - listed)}, gprof does not")
if errors:
    print("\n".join(errors))
    sys.exit(1)
print(f"ok: {len(rows)} positions, sampled functions {sorted(sampled)}")
