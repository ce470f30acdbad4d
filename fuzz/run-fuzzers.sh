#!/usr/bin/env bash
# Runs each fuzz target, one at a time, for SECONDS from its seed corpus.
#
#   fuzz/run-fuzzers.sh [SECONDS | runs:N] [BUILD_DIR] [TARGET...]
#
# runs:N runs N inputs with a fixed seed instead, the same ones every time
# (what CI does: a gate must not fail by chance); the long random runs are
# for docs/Reliability.md.
# BUILD_DIR (default build-sanitize) must be configured with
# -DPROFKIT_BUILD_FUZZERS=ON and CC=clang-19 CXX=clang++-19. The corpora grow
# in BUILD_DIR/fuzz-corpus/<target>, findings land in
# BUILD_DIR/fuzz-findings/<target>, logs in BUILD_DIR/fuzz-logs. Prints one
# line per target (executions, cov, ft) and fails if any target found
# something.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
build=${2:-build-sanitize}
# New inputs go to the first corpus directory: for fixed runs a scratch one,
# so that the seed corpus, and with it the next run, stays as it was.
scratch=()
if [[ $secs == runs:* ]]; then
  budget=(-runs="${secs#runs:}" -seed=1)
  what="${secs#runs:} runs, seed 1"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
else
  budget=(-max_total_time="$secs")
  what="${secs}s"
fi
shift $(( $# < 2 ? $# : 2 ))
targets=("$@")
[ ${#targets[@]} -ne 0 ] ||
  targets=(callgrind-reader webgrind-reader gmon-reader roundtrip merge
    pipeline-parser sampleprof-reader timetrace-reader)

ninja -C "$build" -j "$(nproc)" profkit-fuzzers >/dev/null ||
  { echo "fuzz build: FAILED"; exit 1; }
corpus="$build/fuzz-corpus"
if [ ! -d "$corpus/merge" ]; then
  python3 fuzz/make-corpus.py "$corpus" build/bin/profkit-opt >/dev/null ||
    python3 fuzz/make-corpus.py "$corpus" >/dev/null ||
    { echo "fuzz corpus: FAILED"; exit 1; }
fi
mkdir -p "$build/fuzz-logs"
status=0
for t in "${targets[@]}"; do
  dict=()
  case $t in
  callgrind-reader | roundtrip | merge) dict=(-dict=fuzz/callgrind.dict) ;;
  pipeline-parser) dict=(-dict=fuzz/pipeline.dict) ;;
  timetrace-reader) dict=(-dict=fuzz/timetrace.dict) ;;
  esac
  mkdir -p "$build/fuzz-findings/$t"
  log="$build/fuzz-logs/$t.log"
  [ -z "${tmp:-}" ] || { mkdir -p "$tmp/$t"; scratch=("$tmp/$t"); }
  "$build/bin/$t-fuzzer" "${scratch[@]}" "$corpus/$t" "${dict[@]}" \
    "${budget[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$build/fuzz-findings/$t/" \
    >"$log" 2>&1
  rc=$?
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
  last=$(grep -aE '^#[0-9]+' "$log" | tail -n1)
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "fuzz $t: FAILED (exit $rc) after ${execs:-?} executions; see $log"
    grep -aE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -n 5
  else
    echo "fuzz $t: $what, ${execs:-0} executions, cov ${cov:-0}, ft ${ft:-0}, no findings"
  fi
done
exit "$status"
