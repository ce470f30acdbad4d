#!/usr/bin/env bash
# Makes the large benchmark file: callgrind with --dump-instr=yes
# --collect-jumps=yes of clang-19 compiling a C++ file, as one real profile;
# then, to pass the size the benchmark needs, its parts repeated (as
# --combine-dumps=yes would append further dumps) until the file holds at
# least MIN_MB megabytes.
#   bench/make-large.sh [OUT] [MIN_MB]   (default bench/out/large.callgrind, 300)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out/large.callgrind}
min_mb=${2:-300}
work=$(dirname "$out")/work
mkdir -p "$work"

cat > "$work/tu.cpp" <<'CPP'
#include <algorithm>
#include <iostream>
#include <map>
#include <regex>
#include <string>
#include <vector>
int main() {
  std::map<std::string, std::vector<int>> M;
  std::regex R("([a-z]+)[0-9]*");
  for (int I = 0; I < 100; ++I)
    M[std::to_string(I)].push_back(I);
  std::cout << M.size() << std::regex_match("abc12", R) << "\n";
}
CPP

one="$work/clang.callgrind"
if [ ! -s "$one" ]; then
  echo "profiling clang++-19 -O2 under callgrind (a few minutes)..." >&2
  # clang runs cc1 in-process (-fintegrated-cc1), so one process does it all.
  valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes \
    --callgrind-out-file="$one" \
    clang++-19 -O2 -c "$work/tu.cpp" -o "$work/tu.o" 2>"$work/valgrind.log"
fi

size=$(stat -c %s "$one")
copies=$(( (min_mb * 1024 * 1024 + size - 1) / size ))
[ "$copies" -ge 1 ] || copies=1
: > "$out.tmp"
for ((i = 0; i < copies; i++)); do cat "$one" >> "$out.tmp"; done
mv "$out.tmp" "$out"
echo "$out: $(( $(stat -c %s "$out") / 1024 / 1024 )) MB ($copies parts of $(( size / 1024 / 1024 )) MB)"
