#!/usr/bin/env bash
# Makes the benchmark shapes of issue 19, each from a real program run under
# valgrind, then grown to at least MIN_MB megabytes (no large file is
# committed):
#   a.callgrind     (a) instr-level with jumps, one event: bench/make-large.sh
#   b.callgrind     (b) instr-level with cache and branch simulation, 13
#                   events: callgrind --dump-instr=yes --cache-sim=yes
#                   --branch-sim=yes of the clang-19 compile of (a), its
#                   parts repeated
#   c.callgrind     (c) line-level, many parts: callgrind
#                   --separate-threads=yes --dump-every-bb=2000000 of
#                   `xz -T2` (three threads, about 70 dumps each), every
#                   dump of every thread one part, the lot repeated
#   d.cachegrind    (d) cachegrind --cache-sim=yes --branch-sim=yes of the
#                   clang-19 compile, its body repeated with the fl= files
#                   renamed (copyN/...) and the summary scaled to match
#   b.callgrind.gz  (e) gzip -1 of (b)
# The valgrind runs (minutes each, under nice) are kept in OUT_DIR/work and
# reused; a shape that is already there is kept (delete it to remake it).
#   bench/make-shapes.sh [OUT_DIR] [MIN_MB]   (default bench/out/shapes, 150)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/profile-lib.sh"
out=${1:-$here/out/shapes}
min_mb=${2:-150}
mkdir -p "$out/work"
out=$(cd "$out" && pwd)
work=$out/work

# (a): make-large.sh, sharing the work directory (its clang.callgrind).
[ -s "$out/a.callgrind" ] || "$here/make-large.sh" "$out/a.callgrind" "$min_mb"

# (c): xz compresses the first 4 MB of libLLVM (machine code, a realistic
# input) in 512 KB blocks on two worker threads beside the main thread.
if [ ! -s "$out/c.callgrind" ]; then
  parts=$work/c-parts
  if [ ! -s "$parts/xz.callgrind-01" ]; then
    rm -rf "$parts" && mkdir -p "$parts"
    head -c 4000000 /usr/lib/llvm-19/lib/libLLVM.so.1 > "$work/xz-in"
    echo "profiling xz -T2 under callgrind --separate-threads=yes..." >&2
    nice -n 19 valgrind --tool=callgrind --separate-threads=yes \
      --dump-every-bb=2000000 --callgrind-out-file="$parts/xz.callgrind" \
      xz -T2 -1 --block-size=512KiB -c "$work/xz-in" > /dev/null \
      2> "$work/c-valgrind.log"
  fi
  # Dumps in the order they were made: xz.callgrind.N-TT for N = 1, 2, ...,
  # then the final dump xz.callgrind-TT (xz.callgrind itself is left empty).
  mapfile -t files < <(cd "$parts" && ls | sed -nE 's/^xz\.callgrind\.([0-9]+)-([0-9]+)$/\1 \2 &/p' |
    sort -k1,1n -k2,2n | cut -d' ' -f3; ls | grep -E '^xz\.callgrind-[0-9]+$' | sort)
  (cd "$parts" && repeat_to_size "$out/c.callgrind" "$min_mb" "${files[@]}")
fi

# (d): the body (fl= to before summary:) is written once as is and then
# again with every fl= file under copyN/, so each copy adds new files and
# functions as a bigger program would; summary: is the sum of all copies.
if [ ! -s "$out/d.cachegrind" ]; then
  one=$work/d-clang.cachegrind
  profile_clang "$one" cachegrind --cache-sim=yes --branch-sim=yes
  size=$(stat -c %s "$one")
  copies=$(( (min_mb * 1024 * 1024 + size - 1) / size ))
  [ "$copies" -ge 1 ] || copies=1
  {
    awk '/^fl=/ { exit } { print }' "$one"
    for ((i = 0; i < copies; i++)); do
      awk -v p="copy$i/" -v i="$i" '
        /^summary:/ { exit }
        body || /^fl=/ {
          body = 1
          if (i > 0 && sub(/^fl=/, "")) $0 = "fl=" p $0
          print
        }' "$one"
    done
    awk -v n="$copies" '/^summary:/ {
      printf "summary:"
      for (k = 2; k <= NF; k++) printf " %.0f", $k * n
      print ""
    }' "$one"
  } > "$out/d.cachegrind.tmp"
  mv "$out/d.cachegrind.tmp" "$out/d.cachegrind"
  echo "$out/d.cachegrind: $(( $(stat -c %s "$out/d.cachegrind") / 1048576 )) MB ($copies copies of the body of $(( size / 1024 )) KB)"
fi

# (b) and (e), last: (b) takes the longest to profile.
if [ ! -s "$out/b.callgrind" ]; then
  profile_clang "$work/b-clang.callgrind" callgrind --dump-instr=yes \
    --cache-sim=yes --branch-sim=yes
  repeat_to_size "$out/b.callgrind" "$min_mb" "$work/b-clang.callgrind"
  rm -f "$out/b.callgrind.gz"
fi
if [ ! -s "$out/b.callgrind.gz" ]; then
  nice -n 19 gzip -1 -k "$out/b.callgrind"
  echo "$out/b.callgrind.gz: $(( $(stat -c %s "$out/b.callgrind.gz") / 1048576 )) MB"
fi
