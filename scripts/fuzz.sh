#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs one of them over the seed corpus.
#
#   scripts/fuzz.sh <target> [seconds] [libFuzzer flags...]
#
# <target> is fuzz_model_differential, fuzz_model_decoder, fuzz_wire_reader, fuzz_text_printer,
# fuzz_text_parser, fuzz_checker, fuzz_npy, fuzz_optimize, fuzz_convert_opset, fuzz_draw or
# fuzz_surgery; seconds defaults to 60. The seed corpus (conformance models
# plus hand-built ones; hand-written texts for fuzz_text_parser) is written into the build tree
# first; what the fuzzer learns goes to <build>/corpus/<target>, crashes to
# <build>/artifacts/<target>/. One fuzzing process: one core. ONYX_FUZZ_BUILD_JOBS sets
# the build's parallelism (default 1); ONYX_FUZZ_BUILD_DIR the build folder (default build/fuzz;
# the test script passes its sanitizer build, which is configured for fuzzing too).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: $0 <target> [seconds] [libFuzzer flags...]" >&2
  echo "  targets: fuzz_model_differential fuzz_model_decoder fuzz_wire_reader fuzz_text_printer" >&2
  echo "           fuzz_text_parser fuzz_checker fuzz_npy fuzz_optimize fuzz_convert_opset fuzz_draw" >&2
  echo "           fuzz_surgery" >&2
  exit 2
}
[ $# -ge 1 ] || usage
target=$1
shift
seed_dir=seeds
extra=()
case $target in
  fuzz_model_differential | fuzz_model_decoder | fuzz_text_printer | fuzz_checker | \
    fuzz_convert_opset | fuzz_draw | fuzz_surgery) max_len=65536 ;;
  fuzz_wire_reader) max_len=4096 ;;
  fuzz_text_parser)
    max_len=16384
    seed_dir=text_seeds
    extra=(-dict=tests/fuzz/text_parser.dict)
    ;;
  fuzz_npy)
    # No seed files: the dictionary gives the fuzzer the header's words.
    max_len=4096
    seed_dir=npy_seeds
    extra=(-dict=tests/fuzz/npy.dict)
    ;;
  fuzz_optimize)
    # No seed files: any bytes describe a model, and a short input a small one. Inputs of
    # every length from the start: the grammar finds new coverage at every length, so
    # libFuzzer's length control would keep the models at a few nodes for the whole run.
    max_len=512
    seed_dir=optimize_seeds
    extra=(-len_control=0)
    ;;
  *) usage ;;
esac
seconds=60
if [ $# -ge 1 ] && [[ $1 =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi

dir=${ONYX_FUZZ_BUILD_DIR:-build/fuzz}
CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DONYX_FUZZ=ON -DONYX_TESTS=ON >/dev/null
cmake --build "$dir" -j "${ONYX_FUZZ_BUILD_JOBS:-1}" --target "$target" onyx_fuzz_seeds

seeds=$dir/tests/fuzz/$seed_dir
corpus=$dir/corpus/$target
artifacts=$dir/artifacts/$target
log=$dir/logs/$target-$(date +%Y%m%d-%H%M%S).log
mkdir -p "$corpus" "$artifacts" "$(dirname "$log")" "$seeds"

# UndefinedBehaviorSanitizer reports become crashes the fuzzer stops on.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}

echo "== $target for ${seconds}s (log: $log)"
status=0
"$dir/tests/fuzz/$target" "$corpus" "$seeds" \
  -max_total_time="$seconds" -rss_limit_mb=4096 -max_len="$max_len" -timeout=60 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "${extra[@]}" "$@" >"$log" 2>&1 || status=$?

runs=$(grep -oE '^Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+' || true)
if [ -z "$runs" ]; then
  runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | tail -1 |
    grep -oE '[0-9]+$' || true)
fi
echo "executions: ${runs:-unknown}"
if [ "$status" -eq 0 ] && grep -q '^Done [0-9]* runs' "$log"; then
  echo "result: clean ($target ran ${seconds}s without a finding)"
else
  echo "result: FINDING (exit status $status); the end of the log:"
  tail -n 40 "$log"
  ls -1 "$artifacts" | sed 's/^/  artifact: /'
  exit 1
fi
