#!/usr/bin/env bash
# threads-equal.sh PROFKIT-OPT PROFKIT-DIFF WORK INPUT...
# Checks that no output depends on the number of threads: each INPUT is read
# and written with -threads=1, then with 2 and 3 threads forced on every step
# (a file read in pieces, parts written on several threads), and every group
# of inputs from one directory is merged likewise (the next input read while
# the last merges), and its first and last input compared by profkit-diff
# (the two read at once). The IR, the callgrind output, the exit status and the
# warnings and errors must be byte-identical; notes may differ only in saying
# that a file could not be split, or into fewer pieces. Prints one line per run compared; exits
# non-zero on the first difference.
set -uo pipefail
opt=$1 diff=$2 work=$3
shift 3
mkdir -p "$work"

# run NAME N ARGS...: runs profkit-opt with N threads into $work/NAME.N.*
run() {
  local name=$1 n=$2 read=() write=()
  shift 2
  [ "$n" = 1 ] || { read=(-read-threads="$n"); write=(-write-threads="$n"); }
  "$opt" -threads="$n" "${read[@]}" "$@" -print-ir >"$work/$name.$n.ir" \
    2>"$work/$name.$n.err"
  echo $? >"$work/$name.$n.status"
  "$opt" -threads="$n" "${read[@]}" "${write[@]}" "$@" \
    -o "$work/$name.$n.cg" 2>>"$work/$name.$n.err"
  echo $? >>"$work/$name.$n.status"
  grep -vE ': note: .*read (on one thread|in [0-9]+ pieces)' "$work/$name.$n.err" \
    >"$work/$name.$n.diag"
}

# same NAME ARGS...: 1, 2 and 3 threads give the same.
same() {
  local name=$1 n what
  shift
  for n in 1 2 3; do run "$name" "$n" "$@"; done
  for n in 2 3; do
    for what in status ir cg diag; do
      if [ -e "$work/$name.1.$what" ] || [ -e "$work/$name.$n.$what" ]; then
        cmp -s "$work/$name.1.$what" "$work/$name.$n.$what" || {
          echo "DIFF $name: $what with 1 and $n threads ($*)"
          diff "$work/$name.1.$what" "$work/$name.$n.$what" | head -20
          exit 1
        }
      fi
    done
  done
  echo "same $name: exit $(tr '\n' ' ' <"$work/$name.1.status")"
}

declare -A groups
i=0
for in in "$@"; do
  i=$((i + 1))
  same "input$i" "$in"
  # Inputs that read cleanly merge with the others of their directory.
  if [ "$(head -1 "$work/input$i.1.status")" = 0 ]; then
    groups[$(dirname "$in")]+="$in"$'\n'
  fi
done
for dir in "${!groups[@]}"; do
  mapfile -t files < <(printf '%s' "${groups[$dir]}")
  i=$((i + 1))
  # Each input twice, so that there are at least two to merge.
  same "merge$i" "${files[@]}" "${files[@]}" -passes=merge
  for n in 1 2 3; do
    "$diff" -threads="$n" "${files[0]}" "${files[-1]}" >"$work/diff$i.$n" 2>&1
    echo $? >>"$work/diff$i.$n"
  done
  for n in 2 3; do
    cmp -s "$work/diff$i.1" "$work/diff$i.$n" || {
      echo "DIFF diff$i: profkit-diff with 1 and $n threads"
      diff "$work/diff$i.1" "$work/diff$i.$n" | head -20
      exit 1
    }
  done
  echo "same diff$i: exit $(tail -1 "$work/diff$i.1")"
done
exit 0
