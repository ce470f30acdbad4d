#!/usr/bin/env bash
# Merging N copies of one callgrind file and computing inclusive costs:
# time and peak RSS (from /usr/bin/time -v) for 1, 5 and 10 inputs.
#   bench/merge.sh FILE    (e.g. bench/out/large.callgrind from make-large.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/measure.sh"
file=${1:?usage: bench/merge.sh FILE}
opt=${PROFKIT_OPT:-$here/../build/bin/profkit-opt}
[ -f "$file" ] || { echo "no $file" >&2; exit 1; }
one=$(size_mb "$file")
cat "$file" > /dev/null
echo "file: $file ($one MB); pipeline: merge,inclusive"
for n in 1 5 10; do
  inputs=()
  for _ in $(seq "$n"); do inputs+=("$file"); done
  MB=$(awk -v n="$n" -v m="$one" 'BEGIN { printf "%.1f", n * m }')
  measure "$n inputs ($MB MB)" "$opt" -passes='merge,inclusive' "${inputs[@]}" -disable-output
done
