#!/usr/bin/env bash
# annotate-equal.sh IN OUT
# Checks that callgrind_annotate shows the same numbers for OUT (profkit's
# output) as for IN: plain, --inclusive=yes, and the --tree=both modes.
#  - The 'Profile data file' line names the file, so it is dropped.
#  - callgrind_annotate strips the current directory from fl= names but not
#    from cfi= names, so it runs from an empty directory that is no prefix of
#    any path in the profiles.
#  - --tree lists equal-cost callers in Perl hash order, which depends on
#    the order the file names them in; PERL_HASH_SEED=0 fixes the hash, and
#    the lines of each blank-line-separated block are sorted.
#  - A cost line without trailing zeros (callgrind, and profkit's writer)
#    shows '.' where the same line with explicit zeros (cachegrind) shows
#    '0'; the IR does not keep which was written, so '.' compares as '0'.
#  - On files with several parts callgrind_annotate warns about the header
#    lines of later parts by line number; the numbers are dropped.
set -euo pipefail
in=$(realpath "$1") out=$(realpath "$2")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0
normalize() {
  grep -v '^Profile data file' |
    sed -E 's/^WARNING: line [0-9]+ malformed/WARNING: line N malformed/' |
    perl -pe 's/(?<![^ ])\.(?![^ \n])/0/g' | sort_blocks
}
sort_blocks() {
  gawk 'function flush() { n = asort(b); for (i = 1; i <= n; i++) print b[i]; delete b; k = 0 }
       /^$/ { flush(); print; next } { b[++k] = $0 } END { flush() }'
}
for mode in "" "--inclusive=yes" "--tree=both" "--tree=both --inclusive=yes"; do
  # shellcheck disable=SC2086
  callgrind_annotate --auto=no $mode "$in" 2>&1 | normalize >in.txt
  # shellcheck disable=SC2086
  callgrind_annotate --auto=no $mode "$out" 2>&1 | normalize >out.txt
  if ! diff -u in.txt out.txt; then
    echo "callgrind_annotate $mode differs for $1 and $2" >&2
    exit 1
  fi
done
