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

jobs=$(nproc)
# Counts come from lit's JSON results (-o), pass or fail from its exit status.
run_lit() { # BUILD_DIR
  local results
  results=$(mktemp)
  local rc=0
  python3 "$lit" -sv -j "$jobs" -o "$results" "$1/test" "$1/unittests" || rc=1
  read -r p f s < <(python3 - "$results" <<'PY'
import json, sys
try:
    tests = json.load(open(sys.argv[1]))["tests"]
except (OSError, ValueError, KeyError):
    tests = []
codes = [t["code"] for t in tests]
ok = sum(c in ("PASS", "XFAIL") for c in codes)
skip = sum(c == "UNSUPPORTED" for c in codes)
print(ok, len(codes) - ok - skip, skip)
PY
)
  # lit failing with no failed test (a test suite that did not load) is a
  # failure too.
  [ "$rc" -eq 0 ] || { status=1; [ "$f" -gt 0 ] || f=1; }
  passed=$(( passed + p )) failed=$(( failed + f )) skipped=$(( skipped + s ))
  rm -f "$results"
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
if ! ninja -C build-sanitize -j "$jobs"; then
  echo "build-sanitize: FAILED"
  failed=$(( failed + 1 ))
  status=1
else
  # A sanitizer report aborts (SIGABRT), so `not profkit-opt` cannot mistake
  # it for the error exit it expects.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-abort_on_error=1:print_stacktrace=1}
  export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp:print_suppressions=0}
  run_lit build-sanitize

  echo "== fuzz targets, $fuzz_runs inputs each, fixed seed (build-sanitize)"
  for target in callgrind-reader webgrind-reader gmon-reader roundtrip merge \
    pipeline-parser sampleprof-reader timetrace-reader; do
    if bash fuzz/run-fuzzers.sh "runs:$fuzz_runs" build-sanitize "$target"; then
      passed=$(( passed + 1 ))
    else
      failed=$(( failed + 1 ))
      status=1
    fi
  done
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || status=1
exit "$status"
