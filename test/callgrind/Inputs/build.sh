#!/usr/bin/env bash
# build.sh CC INPUTS-DIR
# Builds the live tests' program into the current directory: ./prog from
# prog.c (-O2, so checksum() from inl.h is inlined) and rec.c (-O0, so every
# recursive call stays a call), linked against ./libshlib.so.
set -euo pipefail
cc=$1 in=$2
"$cc" -O2 -g -shared -fPIC -o libshlib.so "$in/shlib.c"
"$cc" -O0 -g -c -o rec.o "$in/rec.c"
"$cc" -O2 -g -o prog "$in/prog.c" rec.o -L. -lshlib -Wl,-rpath,"$PWD" -pthread
