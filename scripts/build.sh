#!/usr/bin/env bash
# Configures and builds profkit in ./build with Ninja. Configures again when
# a CMake file is newer than the last configuration (ninja does too, but not
# after a configuration that failed half-way).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ] ||
  [ -n "$(find . -path ./build -prune -o -path './build-*' -prune -o \
    \( -name CMakeLists.txt -o -name '*.cmake' \) -newer build/build.ninja \
    -print -quit)" ]; then
  cmake -G Ninja -S . -B build -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm
fi
ninja -C build -j "$(nproc)"
