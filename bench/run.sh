#!/usr/bin/env bash
# Times profkit-opt against the peer tools on one callgrind file: MB/s and
# peak RSS (from /usr/bin/time -v) for each command. The file stays in the
# page cache (it is read once before timing).
#   bench/run.sh [FILE]    (default bench/out/large.callgrind)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
file=${1:-$here/out/large.callgrind}
opt=${PROFKIT_OPT:-$here/../build/bin/profkit-opt}
[ -f "$file" ] || { echo "no $file: run bench/make-large.sh first" >&2; exit 1; }
mb=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", b / 1048576 }')
cat "$file" > /dev/null

measure() { # NAME COMMAND...
  local name=$1; shift
  local log; log=$(mktemp)
  /usr/bin/time -v "$@" > /dev/null 2> "$log" || { echo "$name failed:" >&2; cat "$log" >&2; }
  local wall rss
  # "Elapsed (wall clock) time (h:mm:ss or m:ss): 1:02.50"
  wall=$(sed -nE 's/.*Elapsed \(wall clock\).*\): *//p' "$log" |
         awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
  rss=$(sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+)/\1/p' "$log")
  rm -f "$log"
  awk -v n="$name" -v w="$wall" -v r="$rss" -v mb="$mb" 'BEGIN {
    printf "%-44s %8.2f s %9.1f MB/s %8.0f MB peak RSS\n", n, w, (w > 0 ? mb / w : 0), r / 1024 }'
}

echo "file: $file ($mb MB)"
measure "profkit-opt FILE -disable-output (read)" "$opt" "$file" -disable-output
measure "profkit-opt FILE -o /dev/null (read+write)" "$opt" "$file" -o /dev/null
measure "LC_ALL=C awk (sum of column 2)" env LC_ALL=C awk '$1 ~ /^[0-9+*-]/ { s += $2 } END { print s }' "$file"
if [ -z "${SKIP_PEERS:-}" ]; then
  measure "callgrind_annotate" callgrind_annotate "$file"
fi
