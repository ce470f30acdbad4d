#!/usr/bin/env bash
# Merging N copies of one callgrind file and computing inclusive costs:
# time and peak RSS (from /usr/bin/time -v) for 1, 5 and 10 inputs.
#   bench/merge.sh FILE    (e.g. bench/out/large.callgrind from make-large.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
file=${1:?usage: bench/merge.sh FILE}
opt=${PROFKIT_OPT:-$here/../build/bin/profkit-opt}
[ -f "$file" ] || { echo "no $file" >&2; exit 1; }
mb=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", b / 1048576 }')
cat "$file" > /dev/null
echo "file: $file ($mb MB); pipeline: merge,inclusive"
for n in 1 5 10; do
  inputs=()
  for _ in $(seq "$n"); do inputs+=("$file"); done
  log=$(mktemp)
  /usr/bin/time -v "$opt" -passes='merge,inclusive' "${inputs[@]}" \
      -disable-output 2> "$log" || { cat "$log" >&2; exit 1; }
  wall=$(sed -nE 's/.*Elapsed \(wall clock\).*\): *//p' "$log" |
         awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
  rss=$(sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+)/\1/p' "$log")
  rm -f "$log"
  awk -v n="$n" -v w="$wall" -v r="$rss" -v mb="$mb" 'BEGIN {
    printf "%2d inputs (%7.1f MB): %8.2f s %8.0f MB peak RSS\n", n, n * mb, w, r / 1024 }'
done
