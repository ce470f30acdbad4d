#!/usr/bin/env bash
# pieces-equal.sh PROFKIT-OPT IN
# Checks that reading IN in two, three and four pieces (-read-threads=N)
# gives what reading it in one does: the same exit status, IR, warnings and
# errors, and the same callgrind output. Prints the notes of the read in two
# pieces ("read on one thread: WHY" when it could not split IN) and those of
# the reads in three and four that say why they read it on one thread or why
# a tail skimmed the pieces before its own, not replaying their digests;
# nothing else, for FileCheck. Exits non-zero on a difference.
set -uo pipefail
opt=$1 in=$2
"$opt" -read-threads=1 "$in" -print-ir >"$in.one" 2>"$in.one.err"
one=$?
[ "$one" = 0 ] && "$opt" -read-threads=1 "$in" -o "$in.one.cg" 2>/dev/null
for n in 2 3 4; do
  "$opt" -read-threads=$n "$in" -print-ir >"$in.$n" 2>"$in.$n.notes"
  status=$?
  [ "$one" = "$status" ] ||
    { echo "exit status $one in one piece, $status in $n"; exit 1; }
  grep -v ': note: ' "$in.$n.notes" >"$in.$n.err"
  diff -u "$in.one" "$in.$n" >&2 || exit 1
  diff -u "$in.one.err" "$in.$n.err" >&2 || exit 1
  if [ "$one" = 0 ]; then
    "$opt" -read-threads=$n "$in" -o "$in.$n.cg" 2>/dev/null &&
      cmp "$in.one.cg" "$in.$n.cg" >&2 || exit 1
  fi
done
# The two-piece files under their former names, for the tests' checks.
mv "$in.2" "$in.two" && mv "$in.2.err" "$in.two.err"
grep ': note: ' "$in.2.notes"
# In more pieces too, the file is read in pieces unless a note says why
# not, and the tails replay digests of the pieces before their own unless a
# note says why they skimmed them.
grep -h ': note: .*\(read on one thread\|not digested\)' "$in.3.notes" \
  "$in.4.notes"
exit 0
