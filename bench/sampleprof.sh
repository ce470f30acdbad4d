#!/usr/bin/env bash
# The sampleprof writer against llvm-profgen-19 on the same counts: a
# callgrind --dump-instr=yes run of a large program with debug info
# (profkit-opt itself, built with clang-19 -gline-tables-only
# -fdebug-info-for-profiling, converting the benchmark's clang profile),
# converted by profkit end to end (read the callgrind file, symbolize,
# write extbinary) and by llvm-profgen from its unsymbolized profile of the
# same counts. Prints wall time and peak RSS of each, then checks that the
# two profiles agree (test/sampleprof/Inputs/compare-sample-profiles.py).
#   bench/sampleprof.sh        (BEST_OF=N keeps the fastest of N runs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
source "$here/measure.sh"
opt=${PROFKIT_OPT:-$root/build/bin/profkit-opt}
out=$here/out/sampleprof
mkdir -p "$out"

# The input the profiled program works on: one real clang profile.
input=$here/out/work/clang.callgrind
[ -s "$input" ] || bash "$here/make-large.sh" "$here/out/large.callgrind" 1 >&2

# The profiled program: profkit-opt with the debug info sample profiles need,
# as DWARF 4: valgrind 3.19's reader gives up on clang-19's DWARF 5 in a
# program this large ("unhandled dwarf2 abbrev form code 0x25").
prog=$out/build/bin/profkit-opt
if [ ! -x "$prog" ]; then
  echo "building profkit-opt with clang-19 -fdebug-info-for-profiling..." >&2
  cmake -G Ninja -S "$root" -B "$out/build" \
    -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    "-DCMAKE_CXX_FLAGS=-gdwarf-4 -gline-tables-only -fdebug-info-for-profiling" >&2
  ninja -C "$out/build" profkit-opt >&2
fi

profile=$out/profkit-opt.callgrind
if [ ! -s "$profile" ]; then
  echo "running profkit-opt under callgrind --dump-instr=yes..." >&2
  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$profile" \
    "$prog" "$input" -read-threads=1 -o /dev/null 2> "$out/valgrind.log"
fi
unsym=$out/profkit-opt.unsym
[ -s "$unsym" ] ||
  python3 "$root/scripts/callgrind-to-unsymbolized.py" "$profile" "$prog" > "$unsym"

MB=$(size_mb "$profile")
echo "profile: $profile ($MB MB callgrind; $(size_mb "$unsym") MB unsymbolized)"
echo "program: $prog ($(size_mb "$prog") MB)"
measure "profkit-opt -output-format=sampleprof" \
  "$opt" "$profile" -binary="$prog" -output-format=sampleprof -o "$out/profkit.prof"
measure "llvm-profgen-19 --unsymbolized-profile" \
  llvm-profgen-19 --binary="$prog" --unsymbolized-profile="$unsym" \
  --use-offset=false -o "$out/profgen.prof"

# The same profile? (text, not timed)
"$opt" "$profile" -binary="$prog" -output-format='sampleprof<format=text>' \
  -o "$out/profkit.txt" 2> /dev/null
llvm-profgen-19 --binary="$prog" --unsymbolized-profile="$unsym" \
  --use-offset=false --format=text -o "$out/profgen.txt" 2> /dev/null
python3 "$root/test/sampleprof/Inputs/compare-sample-profiles.py" \
  "$out/profkit.txt" "$out/profgen.txt"
