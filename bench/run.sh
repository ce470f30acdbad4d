#!/usr/bin/env bash
# Times profkit-opt against the peer tools on one callgrind file: MB/s and
# peak RSS (from /usr/bin/time -v) for each command. The file stays in the
# page cache (it is read once before timing).
#   bench/run.sh [FILE]    (default bench/out/large.callgrind)
# SKIP_PEERS=1 leaves out callgrind_annotate (minutes on a large file).
# With FILE.gz beside FILE (gzip -1 -k FILE), reading it is timed too, with
# gzip -dc as the peer (MB/s of the uncompressed size).
#
#   bench/run.sh -shapes [DIR]    (default bench/out/shapes)
# Every shape of bench/make-shapes.sh against the targets of issue 19, the
# commands taking turns (one run of each, then the next round; BEST_OF
# rounds, default 3, the fastest run of each kept). Prints two markdown
# tables, each figure with PASS or MISS against its target:
# - per shape: read alone, read + write callgrind, and the awk peers
#   (LC_ALL=C gawk and mawk summing column 2; `gzip -dc | awk` for the .gz
#   shape); read + write >= 5x gawk and >= 3x mawk, read >= 4x mawk, peak
#   RSS (the larger of the two profkit-opt runs) <= 0.6x the file's size
#   (the uncompressed size for the .gz shape);
# - merge: `-passes=merge` of two copies of (d) against cg_merge (>= 8x, peak
#   RSS <= 1.5x one input), and of 1, 2, 5, 10 copies, to show time and
#   memory linear in the inputs: PASS when neither grows faster than the
#   number of inputs, with 10 % slack (t10 <= 2.2 t5, t5 <= 2.75 t2; the
#   same for RSS). One input is shown but not compared: merge takes it
#   over as it was read, so it does none of the work of merging;
# - threads: each shape read, and two (d)s merged, with -threads=1 against
#   the default (every core): the speed-up from one core to all;
# - eight pieces: peak RSS of each plain shape read in eight pieces
#   (-threads=8 -read-threads=8: what the default gives on eight cores and
#   more), against the same 0.6x target.
# Both profkit-opt and cg_merge write their merged profile to /dev/null.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/measure.sh"
opt=${PROFKIT_OPT:-$here/../build/bin/profkit-opt}

# A minimal analysis pass: the sum of the first cost column.
sum_column='$1 ~ /^[0-9+*-]/ { s += $2 } END { print s }'

if [ "${1:-}" != -shapes ]; then
  use_input "${1:-}"
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
  exit 0
fi

# --- -shapes ---
dir=${2:-$here/out/shapes}
declare -A path=([a]=$dir/a.callgrind [b]=$dir/b.callgrind [c]=$dir/c.callgrind
                 [d]=$dir/d.cachegrind [e]=$dir/b.callgrind.gz)
declare -A mb
for s in a b c d e; do
  [ -f "${path[$s]}" ] || { echo "no ${path[$s]}: run bench/make-shapes.sh first" >&2; exit 1; }
  mb[$s]=$(size_mb "${path[$s]}")
  cat "${path[$s]}" > /dev/null
done
mb[e]=${mb[b]}  # the .gz shape is measured against its uncompressed size
for tool in gawk mawk cg_merge; do
  command -v "$tool" > /dev/null || { echo "needs $tool" >&2; exit 1; }
done

declare -A BEST_WALL BEST_RSS
d=${path[d]}
rounds=${BEST_OF:-3}
for ((round = 1; round <= rounds; round++)); do
  echo "round $round of $rounds..." >&2
  for s in a b c d e; do
    f=${path[$s]}
    record "$s.read" "$opt" "$f" -disable-output
    record "$s.read1" "$opt" -threads=1 "$f" -disable-output
    [ "$s" = e ] || record "$s.read8" "$opt" -threads=8 -read-threads=8 "$f" -disable-output
    record "$s.rw" "$opt" "$f" -o /dev/null
    for awk in gawk mawk; do
      if [ "$s" = e ]; then
        record "$s.$awk" sh -c 'gzip -dc "$1" | LC_ALL=C "$2" "$3"' sh "$f" "$awk" "$sum_column"
      else
        record "$s.$awk" env LC_ALL=C "$awk" "$sum_column" "$f"
      fi
    done
  done
  record merge.cg cg_merge -o /dev/null "$d" "$d"
  record merge.2t1 "$opt" -threads=1 -passes=merge "$d" "$d" -o /dev/null
  for n in 1 2 5 10; do
    inputs=()
    for _ in $(seq "$n"); do inputs+=("$d"); done
    record "merge.$n" "$opt" -passes=merge "${inputs[@]}" -o /dev/null
  done
done

# Prints RATIO with PASS or MISS: PASS when RATIO >= MIN (or, with "<=",
# RATIO <= MAX).
verdict() {
  awk -v r="$1" -v op="$2" -v t="$3" 'BEGIN {
    ok = (op == ">=") ? r >= t : r <= t
    printf "%.2f %s", r, ok ? "PASS" : "MISS" }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) b = 0.01; printf "%.4f", a / b }'; }
secs() { printf '%.2f s' "$1"; }
mbytes() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }

declare -A name=([a]="(a) instr + jumps, 1 event" [b]="(b) instr, cache + branch, 13 events"
                 [c]="(c) line, threads, many dumps" [d]="(d) cachegrind, cache + branch"
                 [e]="(e) (b) gzip -1")
echo
echo "profkit-opt: $opt; best of $rounds interleaved rounds; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "| shape | MB | read | read + write | gawk | mawk | r+w vs gawk (>= 5) | r+w vs mawk (>= 3) | read vs mawk (>= 4) | peak RSS | RSS / size (<= 0.6) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for s in a b c d e; do
  rss=${BEST_RSS[$s.rw]}
  [ "${BEST_RSS[$s.read]}" -gt "$rss" ] && rss=${BEST_RSS[$s.read]}
  size_label=${mb[$s]}
  [ "$s" = e ] && size_label="${mb[e]} ($(size_mb "${path[e]}") gz)"
  echo "| ${name[$s]} | $size_label | $(secs "${BEST_WALL[$s.read]}") | $(secs "${BEST_WALL[$s.rw]}") |" \
       "$(secs "${BEST_WALL[$s.gawk]}") | $(secs "${BEST_WALL[$s.mawk]}") |" \
       "$(verdict "$(ratio "${BEST_WALL[$s.gawk]}" "${BEST_WALL[$s.rw]}")" '>=' 5) |" \
       "$(verdict "$(ratio "${BEST_WALL[$s.mawk]}" "${BEST_WALL[$s.rw]}")" '>=' 3) |" \
       "$(verdict "$(ratio "${BEST_WALL[$s.mawk]}" "${BEST_WALL[$s.read]}")" '>=' 4) |" \
       "$(mbytes "$rss") | $(verdict "$(ratio "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "${mb[$s]}")" '<=' 0.6) |"
done

echo
echo "| merge of (d), ${mb[d]} MB each | time | peak RSS | target |"
echo "| --- | ---: | ---: | --- |"
echo "| cg_merge, 2 inputs | $(secs "${BEST_WALL[merge.cg]}") | $(mbytes "${BEST_RSS[merge.cg]}") | |"
for n in 1 2 5 10; do
  echo "| profkit-opt -passes=merge, $n inputs | $(secs "${BEST_WALL[merge.$n]}") | $(mbytes "${BEST_RSS[merge.$n]}") | |"
done
echo "| 2 inputs: cg_merge time / profkit-opt time | $(verdict "$(ratio "${BEST_WALL[merge.cg]}" "${BEST_WALL[merge.2]}")" '>=' 8) | | >= 8 |"
echo "| 2 inputs: peak RSS / one input | | $(verdict "$(ratio "$(awk -v k="${BEST_RSS[merge.2]}" 'BEGIN { print k / 1024 }')" "${mb[d]}")" '<=' 1.5) | <= 1.5 |"
echo "| time and RSS, 5 inputs / 2 | $(verdict "$(ratio "${BEST_WALL[merge.5]}" "${BEST_WALL[merge.2]}")" '<=' 2.75) |" \
     "$(verdict "$(ratio "${BEST_RSS[merge.5]}" "${BEST_RSS[merge.2]}")" '<=' 2.75) | <= 2.75 |"
echo "| time and RSS, 10 inputs / 5 | $(verdict "$(ratio "${BEST_WALL[merge.10]}" "${BEST_WALL[merge.5]}")" '<=' 2.2) |" \
     "$(verdict "$(ratio "${BEST_RSS[merge.10]}" "${BEST_RSS[merge.5]}")" '<=' 2.2) | <= 2.2 |"

echo
echo "| -threads=1 against every core ($(nproc)) | one thread | every core | speed-up | peak RSS, one thread | every core |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for s in a b c d e; do
  echo "| read ${name[$s]} | $(secs "${BEST_WALL[$s.read1]}") | $(secs "${BEST_WALL[$s.read]}") |" \
       "$(ratio "${BEST_WALL[$s.read1]}" "${BEST_WALL[$s.read]}" | xargs printf '%.2f') |" \
       "$(mbytes "${BEST_RSS[$s.read1]}") | $(mbytes "${BEST_RSS[$s.read]}") |"
done
echo "| merge 2 (d) | $(secs "${BEST_WALL[merge.2t1]}") | $(secs "${BEST_WALL[merge.2]}") |" \
     "$(ratio "${BEST_WALL[merge.2t1]}" "${BEST_WALL[merge.2]}" | xargs printf '%.2f') |" \
     "$(mbytes "${BEST_RSS[merge.2t1]}") | $(mbytes "${BEST_RSS[merge.2]}") |"

echo
echo "| eight pieces (-threads=8 -read-threads=8) | peak RSS | RSS / size (<= 0.6) |"
echo "| --- | ---: | ---: |"
for s in a b c d; do
  echo "| read ${name[$s]} | $(mbytes "${BEST_RSS[$s.read8]}") |" \
       "$(verdict "$(ratio "$(awk -v k="${BEST_RSS[$s.read8]}" 'BEGIN { print k / 1024 }')" "${mb[$s]}")" '<=' 0.6) |"
done
