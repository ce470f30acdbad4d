#!/bin/sh
# Makes DIR/build from build.ninja and runs ninja in it twice, with src/a.cpp
# touched in between: the log then holds two builds, and the second rebuilds
# obj/a.o and the edge with two outputs (gen/one.h, gen/two.h).
set -e
dir=$1
inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dir"
mkdir -p "$dir/build/src"
cd "$dir/build"
cp "$inputs/build.ninja" .
printf 'int a() { return 1; }\n' > src/a.cpp
printf 'int b() { return 2; }\n' > src/b.cpp
ninja -j2 > /dev/null
# A file's mtime moves in clock ticks of a few ms: a touch at once could
# leave src/a.cpp as old as obj/a.o.
sleep 0.1
touch src/a.cpp
ninja -j2 > /dev/null
