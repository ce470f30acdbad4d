#!/usr/bin/env bash
# pieces-equal.sh PROFKIT-OPT IN
# Checks that reading IN in two pieces (-read-threads=2) gives what reading it
# in one does: the same exit status, IR, warnings and errors, and the same
# callgrind output. Prints the notes of the read in two pieces ("read on one
# thread: WHY" when it could not split IN), and nothing else, for FileCheck.
# Exits non-zero on a difference.
set -uo pipefail
opt=$1 in=$2
"$opt" -read-threads=1 "$in" -print-ir >"$in.one" 2>"$in.one.err"
one=$?
"$opt" -read-threads=2 "$in" -print-ir >"$in.two" 2>"$in.two.notes"
two=$?
[ "$one" = "$two" ] || { echo "exit status $one in one piece, $two in two"; exit 1; }
grep -v ': note: ' "$in.two.notes" >"$in.two.err"
diff -u "$in.one" "$in.two" >&2 || exit 1
diff -u "$in.one.err" "$in.two.err" >&2 || exit 1
if [ "$one" = 0 ]; then
  "$opt" -read-threads=1 "$in" -o "$in.one.cg" 2>/dev/null &&
    "$opt" -read-threads=2 "$in" -o "$in.two.cg" 2>/dev/null &&
    cmp "$in.one.cg" "$in.two.cg" >&2 || exit 1
fi
grep ': note: ' "$in.two.notes"
exit 0
