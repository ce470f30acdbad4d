#!/usr/bin/env bash
# Times profkit-opt against the peer tools on one callgrind file: MB/s and
# peak RSS (from /usr/bin/time -v) for each command. The file stays in the
# page cache (it is read once before timing).
#   bench/run.sh [FILE]    (default bench/out/large.callgrind)
# SKIP_PEERS=1 leaves out callgrind_annotate (minutes on a large file).
# With FILE.gz beside FILE (gzip -1 -k FILE), reading it is timed too, with
# gzip -dc as the peer (MB/s of the uncompressed size).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/measure.sh"
opt=${PROFKIT_OPT:-$here/../build/bin/profkit-opt}
use_input "${1:-}"

# A minimal analysis pass: the sum of the first cost column.
sum_column='$1 ~ /^[0-9+*-]/ { s += $2 } END { print s }'
echo "file: $file ($MB MB)"
measure "profkit-opt FILE -disable-output (read)" "$opt" "$file" -disable-output
measure "  the same on one thread (-read-threads=1)" "$opt" "$file" -disable-output -read-threads=1
measure "profkit-opt FILE -o /dev/null (read+write)" "$opt" "$file" -o /dev/null
for awk in gawk mawk; do
  command -v "$awk" > /dev/null &&
    measure "LC_ALL=C $awk (sum of column 2)" env LC_ALL=C "$awk" "$sum_column" "$file"
done
if [ -f "$file.gz" ]; then
  measure "profkit-opt FILE.gz -disable-output (read)" "$opt" "$file.gz" -disable-output
  measure "gzip -dc FILE.gz" gzip -dc "$file.gz"
fi
if [ -z "${SKIP_PEERS:-}" ]; then
  measure "callgrind_annotate" callgrind_annotate "$file"
fi
