#!/usr/bin/env bash
# Makes the large benchmark file: callgrind with --dump-instr=yes
# --collect-jumps=yes of clang-19 compiling a C++ file, as one real profile;
# then, to pass the size the benchmark needs, its parts repeated (as
# --combine-dumps=yes would append further dumps) until the file holds at
# least MIN_MB megabytes. It is shape (a) of bench/make-shapes.sh.
#   bench/make-large.sh [OUT] [MIN_MB]   (default bench/out/large.callgrind, 300)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/profile-lib.sh"
out=${1:-$here/out/large.callgrind}
min_mb=${2:-300}
work=$(dirname "$out")/work
mkdir -p "$work"

one="$work/clang.callgrind"
profile_clang "$one" callgrind --dump-instr=yes --collect-jumps=yes
repeat_to_size "$out" "$min_mb" "$one"
