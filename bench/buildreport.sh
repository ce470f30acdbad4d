#!/usr/bin/env bash
# The build report against ClangBuildAnalyzer on the same clang time traces,
# in two shapes of a real build (profkit's own, built with clang-19
# -ftime-trace), each copied until it holds about 300 MB:
#   default  every translation unit at clang's default granularity (what a
#            build with -ftime-trace leaves: many traces of a few hundred KB)
#   g0       three large translation units at -ftime-trace-granularity=0
#            (few traces of about 50 MB)
# profkit reads each directory and writes the JSON report; ClangBuildAnalyzer
# runs --all (read the traces) and --analyze (the report), whose times add.
# Prints wall time and peak RSS of each, best of BEST_OF (default 3) runs.
#   bench/buildreport.sh
#   CBA=/path/to/ClangBuildAnalyzer bench/buildreport.sh
# ClangBuildAnalyzer is not part of profkit: build it yourself from
# github.com/aras-p/ClangBuildAnalyzer and give its path as CBA. With it,
# the script also checks that every row of its report (every limit raised)
# is in profkit's, with scripts/compare-with-cba.py.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
source "$here/measure.sh"
opt=${PROFKIT_OPT:-$root/build/bin/profkit-opt}
out=$here/out/buildreport
BEST_OF=${BEST_OF:-3}
target_mb=${TARGET_MB:-300}
mkdir -p "$out"

# A real build with -ftime-trace: profkit's libraries, compiled by clang-19.
build=$out/build
if [ ! -f "$build/.traces-done" ]; then
  echo "building profkit's libraries with clang++-19 -ftime-trace..." >&2
  cmake -G Ninja -S "$root" -B "$build" \
    -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DCMAKE_CXX_FLAGS=-ftime-trace > /dev/null
  ninja -C "$build" ProfkitAnalysis ProfkitFormats ProfkitTransforms \
    ProfkitPasses > /dev/null
  touch "$build/.traces-done"
fi

# Copies the traces of $1 (a find expression's root) under $2 until it holds
# $target_mb MB.
fill() {
  local from=$1 to=$2 copy=0
  rm -rf "$to"
  mkdir -p "$to"
  while [ "$(du -sm "$to" | cut -f1)" -lt "$target_mb" ]; do
    copy=$((copy + 1))
    mkdir -p "$to/copy$(printf %03d $copy)"
    (cd "$from" && find . -name '*.json' -path '*.dir/*' \
       -exec cp --parents -t "$to/copy$(printf %03d $copy)" {} +)
  done
  touch "$to.done"
}

[ -f "$out/default.done" ] || fill "$build" "$out/default"

# Three large units again, at granularity 0, from the build's own commands.
g0src=$out/g0src
if [ ! -f "$g0src/g0.dir/SampleProfile.cpp.json" ]; then
  mkdir -p "$g0src/g0.dir"
  for o in lib/Formats/CMakeFiles/ProfkitFormats.dir/CallgrindReader.cpp.o \
           lib/Object/CMakeFiles/ProfkitObject.dir/ProgramCode.cpp.o \
           lib/Transforms/CMakeFiles/ProfkitTransforms.dir/SampleProfile.cpp.o; do
    cmd=$(ninja -C "$build" -t commands "$o" | tail -1)
    name=$(basename "$o")
    (cd "$build" && eval "${cmd/-ftime-trace/-ftime-trace -ftime-trace-granularity=0}" \
       -o "$g0src/g0.dir/$name")
  done
fi
[ -f "$out/g0.done" ] || fill "$g0src" "$out/g0"

if [ -n "${CBA:-}" ]; then
  # Every row of every section, for the comparison.
  mkdir -p "$out/cba-ini"
  printf '[counts]\nfileParse=100000\nfileCodegen=100000\nfunction=100000\ntemplate=100000\nheader=100000\nheaderChain=100000\n[minTimes]\nfile=0\n[misc]\nmaxNameLength=100000\nonlyRootHeaders=false\n' \
    > "$out/cba-ini/ClangBuildAnalyzer.ini"
fi

for shape in default g0; do
  dir=$out/$shape
  MB=$(du -sm "$dir" | cut -f1)
  echo "$shape: $(find "$dir" -name '*.json' | wc -l) traces, $MB MB"
  measure "profkit-opt DIR -output-format=build-report" \
    "$opt" "$dir" '-output-format=build-report<format=json>' \
    -o "$out/$shape.profkit.json"
  if [ -n "${CBA:-}" ]; then
    measure "ClangBuildAnalyzer --all" "$CBA" --all "$dir" "$out/$shape.cap"
    measure "ClangBuildAnalyzer --analyze" "$CBA" --analyze "$out/$shape.cap"
    (cd "$out/cba-ini" && "$CBA" --analyze "$out/$shape.cap") > "$out/$shape.cba.txt"
    python3 "$root/scripts/compare-with-cba.py" "$out/$shape.cba.txt" \
      "$out/$shape.profkit.json" | sed 's/^/  /'
  fi
done
