#!/usr/bin/env bash
# Sets up the machine, builds, and runs every lit and unit test. Ends with a
# `N passed, N failed, N skipped` line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
bash scripts/build.sh || exit 1
lit="/usr/lib/llvm-19/build/utils/lit/lit.py"
out=$(mktemp)
python3 "$lit" -sv build/test build/unittests 2>&1 | tee "$out"
status=${PIPESTATUS[0]}
# lit's summary lines look like "  Passed: 12 (100.00%)".
count() {
  local n
  n=$(sed -nE "s/^ *$1 *: *([0-9]+).*/\1/p" "$out" | head -n1)
  echo "${n:-0}"
}
passed=$(( $(count Passed) + $(count 'Expectedly Failed') ))
failed=$(( $(count Failed) + $(count 'Unexpectedly Passed') + $(count Unresolved) + $(count 'Timed Out') ))
skipped=$(count Unsupported)
rm -f "$out"
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
