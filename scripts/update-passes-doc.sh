#!/usr/bin/env bash
# Rewrites the -print-passes block of docs/Passes.md and the -print-formats
# block of docs/Formats.md from the registries (PassRegistry.def and
# Formats.def, through a built profkit-opt).
# test/pipeline/print-passes.test and test/tool/print-formats.test fail when
# they differ.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
opt=${1:-$root/build/bin/profkit-opt}
update() { # DOC FLAG: the block between <!-- begin FLAG --> and <!-- end FLAG -->
  local doc=$1 flag=$2 tmp
  tmp=$(mktemp)
  "$opt" "-$flag" > "$tmp.list"
  awk -v list="$tmp.list" -v flag="$flag" '
    $0 == "<!-- begin " flag " -->" { print; print "```text";
      while ((getline l < list) > 0) print l; print "```"; skip=1; next }
    $0 == "<!-- end " flag " -->" { skip=0 }
    !skip { print }' "$doc" > "$tmp"
  mv "$tmp" "$doc"
  rm -f "$tmp.list"
}
update "$root/docs/Passes.md" print-passes
update "$root/docs/Formats.md" print-formats
