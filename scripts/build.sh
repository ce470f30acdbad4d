#!/usr/bin/env bash
# Configures and builds profkit in ./build with Ninja, guided by a profile
# of its own branches: a first build in ./build-pgo counts them while it
# reads other programs' profiles (scripts/pgo-train.sh, which needs
# valgrind; without it the build is a plain one). Configures again when a
# CMake file is newer than the last configuration (ninja does too, but not
# after a configuration that failed half-way); trains again when the first
# build's profkit-opt changed.
set -euo pipefail
cd "$(dirname "$0")/.."
configure() { # DIR CMAKE_OPTIONS...
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ] ||
    [ -n "$(find . -path ./build -prune -o -path './build-*' -prune -o \
      \( -name CMakeLists.txt -o -name '*.cmake' \) -newer "$dir/build.ninja" \
      -print -quit)" ]; then
    cmake -G Ninja -S . -B "$dir" -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm "$@"
  fi
}
pgo=(-DPROFKIT_PGO= -DPROFKIT_PGO_DIR=) # Plain unless trained below.
if command -v valgrind > /dev/null; then
  counts=$PWD/build-pgo/counts
  configure build-pgo -DPROFKIT_PGO=generate -DPROFKIT_PGO_DIR="$counts"
  ninja -C build-pgo -j "$(nproc)" profkit-opt
  stamp=$counts/trained
  if [ ! -f "$stamp" ] || [ build-pgo/bin/profkit-opt -nt "$stamp" ] ||
    [ scripts/pgo-train.sh -nt "$stamp" ]; then
    # Sources edited since are compiled with the new counts, the others
    # keep theirs, which still match them; a new training set compiles
    # everything again.
    if [ -f "$stamp" ] && [ scripts/pgo-train.sh -nt "$stamp" ] &&
      [ -f build/build.ninja ]; then
      ninja -C build -t clean > /dev/null
    fi
    rm -rf "$counts"
    echo "training the profile-guided build (scripts/pgo-train.sh)..." >&2
    if bash scripts/pgo-train.sh build-pgo/bin/profkit-opt build-pgo/train
    then
      touch "$stamp"
    else
      echo "the training failed (its files are in build-pgo/train):" \
        "a build without profile guidance" >&2
    fi
  fi
  if [ -f "$stamp" ]; then
    rm -rf build-pgo/train # About 110 MB of profiles, made again when needed.
    pgo=(-DPROFKIT_PGO=use -DPROFKIT_PGO_DIR="$counts")
  fi
else
  echo "valgrind not found: a build without profile guidance" >&2
fi
# A configured build keeps its options: reconfigure when the guidance
# changes (a training that failed, valgrind gone or back).
if [ -f build/CMakeCache.txt ] &&
  ! grep -qx "PROFKIT_PGO:STRING=${pgo[0]#-DPROFKIT_PGO=}" build/CMakeCache.txt
then
  rm build/build.ninja
fi
configure build "${pgo[@]}"
ninja -C build -j "$(nproc)"
