#!/usr/bin/env bash
# Rewrites the -print-passes block of docs/Passes.md from the registry
# (include/profkit/Passes/PassRegistry.def, through a built profkit-opt).
# test/pipeline/print-passes.test fails when the two differ.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
opt=${1:-$root/build/bin/profkit-opt}
doc=$root/docs/Passes.md
tmp=$(mktemp)
"$opt" -print-passes > "$tmp.list"
awk -v list="$tmp.list" '
  /^<!-- begin print-passes -->/ { print; print "```text";
    while ((getline l < list) > 0) print l; print "```"; skip=1; next }
  /^<!-- end print-passes -->/ { skip=0 }
  !skip { print }' "$doc" > "$tmp"
mv "$tmp" "$doc"
rm -f "$tmp.list"
