#!/usr/bin/env bash
# The reports of one callgrind file next to the tools people use for them,
# on the same file, and next to profkit's plain read of it: the text report
# against callgrind_annotate --tree=both, the call-graph picture against
# gprof2dot + dot. Prints wall time, throughput and peak RSS of each, then
# what each of profkit's reports costs over reading alone (issue 18 wants
# at most 1.5x).
#   bench/report.sh [FILE]    (default bench/out/large.callgrind, from
#                              bench/make-large.sh)
#   GPROF2DOT=/path/to/gprof2dot.py bench/report.sh
# gprof2dot is not part of profkit: give the path of its script (from
# github.com/jrfonseca/gprof2dot) as GPROF2DOT. SKIP_PEERS=1 leaves out
# callgrind_annotate and gprof2dot (minutes each on a large file). The
# peers run once; profkit best of BEST_OF (default 3).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/measure.sh"
opt=${PROFKIT_OPT:-$here/../build/bin/profkit-opt}
use_input "${1:-}"
export BEST_OF=${BEST_OF:-3}

echo "file: $file ($MB MB)"
measure "profkit-opt FILE -disable-output (read)" "$opt" "$file" -disable-output
read_wall=$LAST_WALL
ratios=()
# LABEL FORMAT: profkit's report in FORMAT, and its cost over the read.
report() {
  measure "$1" "$opt" "$file" "-output-format=$2" -o /dev/null
  ratios+=("$(awk -v a="$LAST_WALL" -v b="$read_wall" -v n="$1" \
    'BEGIN { printf "  %-44s %5.2fx the read\n", n, a / b }')")
}
report "profkit-opt -output-format=report (text)" report
report "profkit-opt -output-format=report<json>" "report<format=json>"
report "profkit-opt -output-format=dot" dot
report "profkit-opt -output-format=svg" svg
if [ -z "${SKIP_PEERS:-}" ]; then
  BEST_OF=1 measure "callgrind_annotate --tree=both" \
    callgrind_annotate --tree=both "$file"
  if [ -n "${GPROF2DOT:-}" ]; then
    BEST_OF=1 measure "gprof2dot -f callgrind (dot)" \
      python3 "$GPROF2DOT" -f callgrind -o /dev/null "$file"
    BEST_OF=1 measure "gprof2dot -f callgrind | dot -Tsvg" bash -c \
      'python3 "$1" -f callgrind "$2" | dot -Tsvg -o /dev/null' _ \
      "$GPROF2DOT" "$file"
  else
    echo "(gprof2dot left out: give GPROF2DOT=/path/to/gprof2dot.py)"
  fi
fi
echo "what each report costs over reading alone:"
printf '%s\n' "${ratios[@]}"
