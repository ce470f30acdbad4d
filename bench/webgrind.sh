#!/usr/bin/env bash
# Speed and peak memory of converting a callgrind file to webgrind, beside
# reading it alone (best of 3 runs each):
#   profkit-opt FILE -disable-output
#   profkit-opt FILE -output-format=webgrind -o /dev/null
# Usage: bench/webgrind.sh CALLGRIND_FILE [PROFKIT_OPT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/measure.sh"
file=${1:?usage: bench/webgrind.sh CALLGRIND_FILE [PROFKIT_OPT]}
opt=${2:-$here/../build/bin/profkit-opt}
MB=$(size_mb "$file")
BEST_OF=3
echo "input: $file ($MB MB)"
measure "read" "$opt" "$file" -disable-output
measure "read + write webgrind" "$opt" "$file" -output-format=webgrind -o /dev/null
