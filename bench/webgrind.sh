#!/usr/bin/env bash
# Speed and peak memory of converting a callgrind file to webgrind, beside
# reading it alone:
#   profkit-opt FILE -disable-output
#   profkit-opt FILE -output-format=webgrind -o /dev/null
# Usage: bench/webgrind.sh CALLGRIND_FILE [PROFKIT_OPT]
# (PROFKIT_OPT defaults to build/bin/profkit-opt.) Prints MB/s of input and
# peak RSS from /usr/bin/time -v, best of 3 runs.
set -euo pipefail

file=${1:?usage: bench/webgrind.sh CALLGRIND_FILE [PROFKIT_OPT]}
tool=${2:-$(dirname "$0")/../build/bin/profkit-opt}
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }
bytes=$(stat -c %s "$file")

run() { # label, args...
  local label=$1 best="" rss=""
  shift
  for _ in 1 2 3; do
    local log
    log=$(mktemp)
    /usr/bin/time -v "$tool" "$file" "$@" 2>"$log" >/dev/null ||
      { cat "$log" >&2; rm -f "$log"; exit 1; }
    local wall kb
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {
      n = split($2, t, ":"); s = 0
      for (i = 1; i <= n; i++) s = s * 60 + t[i]
      print s }' "$log")
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    rm -f "$log"
    if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN{exit !(a<b)}'; then
      best=$wall
      rss=$kb
    fi
  done
  awk -v l="$label" -v b="$bytes" -v s="$best" -v k="$rss" 'BEGIN {
    if (s <= 0) s = 0.001
    printf "%-10s %8.2f s %9.1f MB/s %9.1f MB peak RSS\n", l, s,
           b / 1e6 / s, k / 1024 }'
}

echo "input: $file ($(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1e6}') MB)"
run read -disable-output
run webgrind -output-format=webgrind -o /dev/null
