# Sourced by the bench scripts: runs a command under /usr/bin/time -v and
# prints its wall time, throughput on $MB megabytes of input, and peak RSS.
#   MB=123.4; measure LABEL COMMAND [ARGS...]
# BEST_OF=N (default 1) keeps the fastest of N runs; LAST_WALL holds its
# wall time afterwards, for ratios.

# Runs COMMAND once under /usr/bin/time -v, its output thrown away; sets
# WALL (seconds) and RSS_KB (peak RSS). Fails, printing time's log, if the
# command does. The wall time is bash's clock around it, in microseconds:
# time's own is in hundredths, 6 % of a read of 0.17 s.
time_once() {
  local log start end
  [ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; return 1; }
  log=$(mktemp)
  start=${EPOCHREALTIME/,/.}
  if ! /usr/bin/time -v "$@" > /dev/null 2> "$log"; then
    echo "$* failed:" >&2; cat "$log" >&2; rm -f "$log"; return 1
  fi
  end=${EPOCHREALTIME/,/.}
  WALL=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.6f", e - s }')
  RSS_KB=$(sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+)/\1/p' "$log")
  rm -f "$log"
}

measure() {
  local label=$1 best="" rss=""
  shift
  for _ in $(seq "${BEST_OF:-1}"); do
    time_once "$@" || return 1
    if [ -z "$best" ] || awk -v a="$WALL" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$WALL
      rss=$RSS_KB
    fi
  done
  LAST_WALL=$best
  awk -v n="$label" -v w="$best" -v r="$rss" -v mb="$MB" 'BEGIN {
    if (w <= 0) w = 0.01
    printf "%-46s %8.2f s %9.1f MB/s %8.0f MB peak RSS\n", n, w, mb / w, r / 1024 }'
}

# For benchmarks whose commands take turns (one run of each, then the next
# round): runs COMMAND once and keeps, under KEY, its fastest wall time so
# far in BEST_WALL[KEY] and that run's peak RSS (KB) in BEST_RSS[KEY].
#   declare -A BEST_WALL BEST_RSS; record KEY COMMAND [ARGS...]
record() {
  local key=$1
  shift
  time_once "$@" || return 1
  if [ -z "${BEST_WALL[$key]:-}" ] ||
     awk -v a="$WALL" -v b="${BEST_WALL[$key]}" 'BEGIN { exit !(a < b) }'; then
    BEST_WALL[$key]=$WALL
    BEST_RSS[$key]=$RSS_KB
  fi
}

# The size of a file in MB, for $MB.
size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }

# The callgrind file a benchmark reads: $1, else bench/make-large.sh's. Sets
# file and MB, and reads it once so that it is in the page cache.
use_input() {
  file=${1:-$(dirname "${BASH_SOURCE[0]}")/out/large.callgrind}
  [ -f "$file" ] || { echo "no $file: run bench/make-large.sh first" >&2; exit 1; }
  MB=$(size_mb "$file")
  cat "$file" > /dev/null
}
