# Sourced by the scripts that make benchmark profiles (make-large.sh,
# make-shapes.sh) and the training profiles of the guided build
# (scripts/pgo-train.sh): the real program benchmarks profile and the way
# a profile is grown to the size a benchmark needs.

# Writes DIR/tu.cpp, the C++ file whose compilation by clang-19 is profiled:
# <regex>, <map>, ... make cc1 run a realistic mix of the front end, the
# optimiser and the back end.
write_tu() {
  cat > "$1/tu.cpp" <<'CPP'
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
}

# Profiles `clang++-19 -O2 -c tu.cpp` in the directory of OUT with
# `valgrind --tool=TOOL OPTIONS...`, writing TOOL's output to OUT; kept if OUT
# is already there (a run takes minutes). clang runs cc1 in-process
# (-fintegrated-cc1), so one process does it all.
#   profile_clang OUT TOOL [VALGRIND OPTIONS...]
profile_clang() {
  local out=$1 tool=$2 dir
  shift 2
  [ -s "$out" ] && return 0
  dir=$(dirname "$out")
  write_tu "$dir"
  echo "profiling clang++-19 -O2 under $tool $* (minutes)..." >&2
  nice -n 19 valgrind --tool="$tool" "$@" --"$tool"-out-file="$out.tmp" \
    clang++-19 -O2 -c "$dir/tu.cpp" -o "$dir/tu-$tool.o" 2> "$out.log"
  mv "$out.tmp" "$out"
}

# Concatenates FILES (whole callgrind files, so each brings its parts, as
# --combine-dumps=yes would append them) over and over into OUT until OUT
# holds at least MIN_MB megabytes; at least once.
#   repeat_to_size OUT MIN_MB FILES...
repeat_to_size() {
  local out=$1 min_mb=$2 size copies i
  shift 2
  size=$(cat "$@" | wc -c)
  copies=$(( (min_mb * 1024 * 1024 + size - 1) / size ))
  [ "$copies" -ge 1 ] || copies=1
  : > "$out.tmp"
  for ((i = 0; i < copies; i++)); do cat "$@" >> "$out.tmp"; done
  mv "$out.tmp" "$out"
  echo "$out: $(( $(stat -c %s "$out") / 1048576 )) MB ($copies copies of $# files, $(( size / 1024 )) KB)"
}
