#!/usr/bin/env bash
# Sets up the machine, builds, and runs every test: the lit and unit tests of
# the normal build (./build), the same tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer (./build-sanitize, clang-19), and each fuzz
# target on PROFKIT_FUZZ_RUNS inputs (default 20000) with a fixed seed from
# its seed corpus, the same inputs every run. Ends with
# a `N passed, N failed, N skipped` line that counts all three (a fuzz target
# is one test); exits non-zero if any part fails.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
bash scripts/build.sh || exit 1
lit="/usr/lib/llvm-19/build/utils/lit/lit.py"
fuzz_runs=${PROFKIT_FUZZ_RUNS:-20000}
status=0
passed=0 failed=0 skipped=0

# lit's summary lines look like "  Passed: 12 (100.00%)".
count() {
  local n
  n=$(sed -nE "s/^ *$2 *: *([0-9]+).*/\1/p" "$1" | head -n1)
  echo "${n:-0}"
}
run_lit() { # BUILD_DIR
  local out
  out=$(mktemp)
  python3 "$lit" -sv "$1/test" "$1/unittests" 2>&1 | tee "$out"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  passed=$(( passed + $(count "$out" Passed) + $(count "$out" 'Expectedly Failed') ))
  failed=$(( failed + $(count "$out" Failed) + $(count "$out" 'Unexpectedly Passed') +
             $(count "$out" Unresolved) + $(count "$out" 'Timed Out') ))
  skipped=$(( skipped + $(count "$out" Unsupported) ))
  rm -f "$out"
}

echo "== lit and unit tests (build)"
run_lit build

echo "== lit and unit tests under ASan+UBSan (build-sanitize)"
if [ ! -f build-sanitize/build.ninja ]; then
  CC=clang-19 CXX=clang++-19 cmake -G Ninja -S . -B build-sanitize \
    -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPROFKIT_SANITIZE=ON -DPROFKIT_BUILD_FUZZERS=ON \
    -DPROFKIT_TEST_CC="$(command -v cc)" >/dev/null || exit 1
fi
if ! ninja -C build-sanitize -j2; then
  echo "build-sanitize: FAILED"
  failed=$(( failed + 1 ))
  status=1
else
  # A sanitizer report aborts (SIGABRT), so `not profkit-opt` cannot mistake
  # it for the error exit it expects.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-abort_on_error=1:print_stacktrace=1}
  run_lit build-sanitize

  echo "== fuzz targets, $fuzz_runs inputs each, fixed seed (build-sanitize)"
  fuzz_out=$(mktemp)
  bash fuzz/run-fuzzers.sh "runs:$fuzz_runs" build-sanitize 2>&1 | tee "$fuzz_out"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  passed=$(( passed + $(grep -c 'no findings$' "$fuzz_out") ))
  failed=$(( failed + $(grep -c ': FAILED' "$fuzz_out") ))
  rm -f "$fuzz_out"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || status=1
exit "$status"
