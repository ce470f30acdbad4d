#!/usr/bin/env bash
# Sets up the machine, builds profkit, and converts the bundled example
# profile: reads examples/callgrind.out.fib and writes it back as callgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
out=build/example/callgrind.out.fib
mkdir -p build/example
build/bin/profkit-opt examples/callgrind.out.fib -o "$out"
build/bin/profkit-opt examples/callgrind.out.fib -print-ir -o "$out.ir"
echo "profkit-opt read examples/callgrind.out.fib and wrote:"
echo "  $out     (callgrind; try: callgrind_annotate $out)"
echo "  $out.ir  (the profile IR as text)"
