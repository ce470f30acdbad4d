#!/usr/bin/env python3
"""Collects the seed corpora of the fuzz targets from the test inputs.

Usage: make-corpus.py OUTDIR [PROFKIT_OPT]

Writes OUTDIR/<target>/ for each target: the callgrind files of the lit tests
(their `;--- name` sections and examples/), text sample profiles (those
sections that are, and one below) with their binary and extbinary forms by
llvm-profdata-19 when it is there, the committed gmon.out fixtures,
webgrind files packed by test/webgrind/Inputs/mkwebgrind.py (versions 4 to
7), and, when PROFKIT_OPT is given, webgrind files it writes from the
callgrind seeds. Nothing is copied into the repository.
"""
import glob
import hashlib
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1]
opt = sys.argv[2] if len(sys.argv) > 2 else None
targets = ["callgrind-reader", "webgrind-reader", "gmon-reader", "roundtrip",
           "merge", "pipeline-parser", "sampleprof-reader",
           "timetrace-reader"]
for t in targets:
    os.makedirs(os.path.join(out, t), exist_ok=True)


def add(data, *kinds):
    name = hashlib.sha1(data).hexdigest()
    for k in kinds:
        with open(os.path.join(out, k, name), "wb") as f:
            f.write(data)


def kind(data):
    if data.startswith(b"gmon"):
        return "gmon-reader"
    if len(data) >= 4 and 4 <= data[0] <= 7 and data[1:4] == b"\0\0\0":
        return "webgrind-reader"
    return "callgrind-reader"


# split-file sections of the lit tests.
for test in glob.glob(os.path.join(root, "test", "**", "*.test"),
                      recursive=True):
    name, lines = None, []
    sections = []
    with open(test, "rb") as f:
        for line in f:
            if line.startswith(b";--- "):
                if name:
                    sections.append(b"".join(lines))
                name, lines = line[5:].strip(), []
            elif name:
                lines.append(line)
    if name:
        sections.append(b"".join(lines))
    for data in sections:
        if data.strip():
            add(data, kind(data), "roundtrip")

# -passes= pipelines of the lit tests and the docs.
for path in glob.glob(os.path.join(root, "test", "**", "*.test"),
                      recursive=True) + glob.glob(
                          os.path.join(root, "docs", "*.md")):
    with open(path, "rb") as f:
        text = f.read()
    for m in re.finditer(rb"-passes='([^']*)'|-passes=([^\s'\"`]+)", text):
        add(m.group(1) or m.group(2), "pipeline-parser")

callgrind = glob.glob(os.path.join(root, "examples", "callgrind.out.*"))
callgrind += glob.glob(os.path.join(root, "test", "**", "Inputs", "**", "*.out"),
                       recursive=True)
for path in callgrind + glob.glob(
        os.path.join(root, "test", "**", "Inputs", "*.gmon"), recursive=True):
    with open(path, "rb") as f:
        data = f.read()
    add(data, kind(data), "roundtrip")

# webgrind files from the JSON specs of the webgrind tests.
inputs = os.path.join(root, "test", "webgrind", "Inputs")
tmp = os.path.join(out, "tmp.wg")
for spec, versions in (("prog.json", [5, 6, 7]), ("prog.v4.json", [4])):
    for v in versions:
        subprocess.run([sys.executable, os.path.join(inputs, "mkwebgrind.py"),
                        os.path.join(inputs, spec), tmp, str(v)], check=True)
        with open(tmp, "rb") as f:
            add(f.read(), "webgrind-reader", "roundtrip")

# webgrind written by profkit-opt from the callgrind seeds.
if opt:
    seeds = os.path.join(out, "callgrind-reader")
    for seed in sorted(os.listdir(seeds)):
        for v in ("5", "6", "7"):
            r = subprocess.run([opt, os.path.join(seeds, seed),
                                "-output-format=webgrind",
                                "-webgrind-version=" + v, "-o", tmp],
                               capture_output=True)
            if r.returncode == 0 and os.path.exists(tmp):
                with open(tmp, "rb") as f:
                    add(f.read(), "webgrind-reader", "roundtrip")
# LLVM sample profiles: text, and binary and extbinary by llvm-profdata-19.
SAMPLE_TEXT = b"""main:600:1
 1: 10
 2.1: 5 foo:4 bar:1
 4: foo:300
  1: 100
  3: bar:120
   65504: 7
 5: 0
foo:200:4
 1: 100 bar:3
"""
samples = [SAMPLE_TEXT]
for test in glob.glob(os.path.join(root, "test", "sampleprof", "**", "*"),
                      recursive=True):
    if os.path.isfile(test):
        with open(test, "rb") as f:
            data = f.read()
        samples += [d for d in re.split(rb"^;--- .*\n", data, flags=re.M)
                    if re.match(rb"[^\s:#]+:\d+:\d+\n", d)]
for data in samples:
    add(data, "sampleprof-reader")
    with open(tmp, "wb") as f:
        f.write(data)
    for encoding in ("--binary", "--extbinary"):
        try:
            r = subprocess.run(["llvm-profdata-19", "merge", "--sample",
                                encoding, tmp, "-o", tmp + ".prof"],
                               capture_output=True)
        except OSError:
            break
        if r.returncode == 0:
            with open(tmp + ".prof", "rb") as f:
                add(f.read(), "sampleprof-reader")
# clang time traces: the committed ones, the ones the tests write with
# printf, and (with clang-19) a real one.
for test in glob.glob(os.path.join(root, "test", "**", "*.json"), recursive=True):
    with open(test, "rb") as f:
        data = f.read()
    if b"traceEvents" in data and len(data) < 65536:
        add(data, "timetrace-reader")
for test in glob.glob(os.path.join(root, "test", "timetrace", "*.test")) + \
        glob.glob(os.path.join(root, "test", "build-report", "*.test")):
    with open(test, "rb") as f:
        for m in re.finditer(rb"printf '(\{\"traceEvents\".*?)'", f.read()):
            add(m.group(1), "timetrace-reader")
with open(tmp + ".cpp", "w") as f:
    f.write("template <int N> struct F { enum { V = F<N - 1>::V + 1 }; };\n"
            "template <> struct F<0> { enum { V = 0 }; };\n"
            "#include <vector>\nint f() { std::vector<int> v(F<9>::V); return v.size(); }\n")
try:
    r = subprocess.run(["clang++-19", "-c", "-ftime-trace",
                        "-ftime-trace-granularity=50", tmp + ".cpp", "-o",
                        tmp + ".o"], capture_output=True)
    if r.returncode == 0 and os.path.getsize(tmp + ".json") < 65536:
        with open(tmp + ".json", "rb") as f:
            add(f.read(), "timetrace-reader")
except OSError:
    pass
for leftover in (tmp + ".cpp", tmp + ".o", tmp + ".json"):
    if os.path.exists(leftover):
        os.remove(leftover)
for leftover in (tmp, tmp + ".prof"):
    if os.path.exists(leftover):
        os.remove(leftover)
# merge reads what roundtrip reads.
for seed in os.listdir(os.path.join(out, "roundtrip")):
    with open(os.path.join(out, "roundtrip", seed), "rb") as f:
        add(f.read(), "merge")
for t in targets:
    print("%s: %d seeds" % (t, len(os.listdir(os.path.join(out, t)))))
