#!/usr/bin/env bash
# Trains the profile-guided build (scripts/build.sh): runs the instrumented
# profkit-opt PROFKIT_OPT on profiles that valgrind makes here of gzip,
# sort and llvm-nm (not the programs bench/ profiles), one of each kind the
# readers and the writer take on: instruction-level with jumps, with cache
# and branch simulation (13 events), line-level, cachegrind (of C++, whose
# long names are most of such a file), and gzipped. Each is repeated to
# 24 MB, so that reading takes its pieces' threads (cachegrind's body with
# its files renamed, as a larger program's would be), and is read on every
# core and on one, then written.
#
#   scripts/pgo-train.sh PROFKIT_OPT WORK_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../bench/profile-lib.sh" # repeat_to_size
opt=$(realpath "$1")
work=$2
mkdir -p "$work"
cd "$work"
seq 1 300000 > input.txt
profile() { # OUT TOOL OPTIONS... -- COMMAND...
  local out=$1 tool=$2
  shift 2
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  # valgrind's notes on the cache it simulates go to the log.
  valgrind --tool="$tool" "${opts[@]}" "--$tool-out-file=$out.one" \
    "$@" > /dev/null 2> "$out.log"
}
profile jumps.callgrind callgrind --dump-instr=yes --collect-jumps=yes -- \
  gzip -9 -c input.txt
profile events.callgrind callgrind --dump-instr=yes --cache-sim=yes \
  --branch-sim=yes -- sort -n input.txt
profile lines.callgrind callgrind -- gzip -1 -c input.txt
for f in jumps events lines; do
  repeat_to_size "$f.callgrind" 24 "$f.callgrind.one" > /dev/null
done
profile cache.cachegrind cachegrind --cache-sim=yes --branch-sim=yes -- \
  llvm-nm-19 -C /usr/lib/llvm-19/lib/libLLVMDemangle.a
awk '/^fl=/ { exit } { print }' cache.cachegrind.one > cache.cachegrind
for ((i = 0; $(stat -c %s cache.cachegrind) < (24 << 20); i++)); do
  awk -v p="copy$i/" '/^summary:/ { exit }
    body || /^fl=/ { body = 1; sub(/^fl=/, "fl=" p); print }' \
    cache.cachegrind.one >> cache.cachegrind
done
gzip -1 -c events.callgrind > events.callgrind.gz
for f in jumps.callgrind events.callgrind lines.callgrind cache.cachegrind \
  events.callgrind.gz; do
  "$opt" "$f" -o /dev/null
  "$opt" "$f" -threads=1 -o /dev/null
done
"$opt" -passes=merge cache.cachegrind cache.cachegrind -o /dev/null
