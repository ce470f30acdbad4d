#!/usr/bin/env bash
# Deterministic PGO from a callgrind run, end to end (docs/SampleProfiles.md):
#
#   1. build examples/pgo/lz.c with -O2 -gdwarf-4 -gline-tables-only
#      -fdebug-info-for-profiling (the baseline),
#   2. run the training workload under callgrind --dump-instr=yes,
#   3. convert the run to an LLVM sample profile with profkit-opt,
#   4. show the profile (llvm-profdata-19 show --sample),
#   5. build again with -fprofile-sample-use (the only flag that differs),
#   6. measure both builds: callgrind Ir (exact, repeatable) on the training
#      and on a different evaluation input, and wall time (best of N).
#
# Everything is written to build/pgo-example; the source tree is not touched.
#
# Environment:
#   PROFKIT_OPT    profkit-opt to use; when unset, build/bin/profkit-opt,
#                  brought up to date with scripts/build.sh first.
#   PGO_CONVERTER  profkit (default), or profgen: LLVM's own llvm-profgen-19
#                  on the same counts, fed through
#                  scripts/callgrind-to-unsymbolized.py, to compare with.
#   PGO_RUNS       native runs per build for the wall time (default 5).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/../.."
root=$PWD
src=$root/examples/pgo/lz.c
work=$root/build/pgo-example
converter=${PGO_CONVERTER:-profkit}
runs=${PGO_RUNS:-5}
unsymbolize=$root/scripts/callgrind-to-unsymbolized.py

# Workloads: SEED SIZE_KB [REPEAT]. Training and evaluation texts differ in
# seed and size; the wall-time workload repeats the evaluation one.
train=(1 1024)
eval=(2 2048)
timed=(2 2048 10)
flags=(-O2 -gdwarf-4 -gline-tables-only -fdebug-info-for-profiling)

die() {
  echo "run.sh: error: $*" >&2
  exit 1
}
need() {
  command -v "$1" >/dev/null || die "$1 not found (bash scripts/setup.sh installs it)"
}
for t in clang-19 valgrind llvm-profdata-19; do need "$t"; done
case $converter in
profkit)
  if [ -z "${PROFKIT_OPT:-}" ]; then
    bash scripts/build.sh >/dev/null
    PROFKIT_OPT=$root/build/bin/profkit-opt
  fi
  [ -x "$PROFKIT_OPT" ] || die "$PROFKIT_OPT is not executable"
  ;;
profgen)
  need llvm-profgen-19
  need python3
  ;;
*) die "PGO_CONVERTER must be profkit or profgen, not '$converter'" ;;
esac

mkdir -p "$work"
cd "$work"
rm -f lz lz-pgo lz.callgrind lz.unsym lz.prof ./*.log eval.*.callgrind

echo "== 1. baseline build: clang-19 ${flags[*]}"
clang-19 "${flags[@]}" -o lz "$src"

echo "== 2. training run: lz ${train[*]} under callgrind"
valgrind --tool=callgrind --dump-instr=yes --demangle=no \
  --callgrind-out-file=lz.callgrind ./lz "${train[@]}" >/dev/null 2>train.log ||
  { cat train.log >&2; die "training run failed"; }

echo "== 3. convert ($converter)"
if [ "$converter" = profkit ]; then
  "$PROFKIT_OPT" lz.callgrind -binary=lz -output-format=sampleprof -o lz.prof
else
  # The ob= path in the callgrind file is absolute: give the helper the same.
  python3 "$unsymbolize" lz.callgrind "$work/lz" >lz.unsym
  llvm-profgen-19 --binary=lz --unsymbolized-profile=lz.unsym \
    --use-offset=false --format=extbinary -o lz.prof
fi

echo "== 4. the profile (llvm-profdata-19 show --sample; functions, then the top one)"
llvm-profdata-19 show --sample lz.prof >profile.log
grep '^Function:' profile.log
sed -n '2,13p' profile.log

echo "== 5. PGO build: clang-19 ${flags[*]} -fprofile-sample-use=lz.prof"
clang-19 "${flags[@]}" -fprofile-sample-use=lz.prof -o lz-pgo "$src" 2>clang-pgo.log ||
  { cat clang-pgo.log >&2; die "PGO build failed"; }
if [ -s clang-pgo.log ]; then
  echo "clang said:"
  cat clang-pgo.log
fi

./lz "${eval[@]}" >out-plain.log
./lz-pgo "${eval[@]}" >out-pgo.log
cmp -s out-plain.log out-pgo.log || die "the two builds print different output"

echo "== 6. measure"
# Total Ir of one run under callgrind (no instruction data needed here).
ir() {
  local out=eval.$1.$2.callgrind
  valgrind --tool=callgrind --callgrind-out-file="$out" "./$1" "${@:3}" \
    >/dev/null 2>/dev/null
  awk '/^(summary|totals):/ { print $2; exit }' "$out"
}
ir_train_plain=$(ir lz train "${train[@]}")
ir_train_pgo=$(ir lz-pgo train "${train[@]}")
ir_eval_plain=$(ir lz eval "${eval[@]}")
ir_eval_pgo=$(ir lz-pgo eval "${eval[@]}")

# Best wall time of $runs native runs, the two builds taking turns.
best_plain='' best_pgo=''
elapsed() {
  local start=$EPOCHREALTIME
  "./$1" "${timed[@]}" >/dev/null
  awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.4f", e - s }'
}
lower() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }
for ((i = 0; i < runs; ++i)); do
  best_plain=$(lower "$(elapsed lz)" "$best_plain")
  best_pgo=$(lower "$(elapsed lz-pgo)" "$best_pgo")
done

change() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f%%", (b - a) * 100 / a }'; }
echo
echo "converter: $converter; training input: lz ${train[*]};" \
  "evaluation input: lz ${eval[*]}"
printf '%-36s %14s %14s %9s\n' "" "plain -O2" "PGO" "change"
printf '%-36s %14s %14s %9s\n' \
  "Ir, training input" "$ir_train_plain" "$ir_train_pgo" \
  "$(change "$ir_train_plain" "$ir_train_pgo")" \
  "Ir, evaluation input" "$ir_eval_plain" "$ir_eval_pgo" \
  "$(change "$ir_eval_plain" "$ir_eval_pgo")" \
  "wall s, lz ${timed[*]}, best of $runs" "$best_plain" "$best_pgo" \
  "$(change "$best_plain" "$best_pgo")"
echo
echo "Per-function Ir: callgrind_annotate $work/eval.lz.eval.callgrind"
echo "            and: callgrind_annotate $work/eval.lz-pgo.eval.callgrind"
