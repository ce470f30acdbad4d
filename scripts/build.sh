#!/usr/bin/env bash
# Configures (once) and builds profkit in ./build with Ninja.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm
fi
ninja -C build
