#!/usr/bin/env bash
# Builds onyx twice (scripts/configure.sh says how) and runs every test in both builds:
# optimised with g++, and with clang under AddressSanitizer + UndefinedBehaviorSanitizer with
# the development checks on. The sanitizer build also carries the libFuzzer coverage
# instrumentation, so the same build gives the fuzz targets, each of which then runs briefly
# (ONYX_FUZZ_SECONDS, default 15; 0 skips) so that they keep building and a shallow bug shows
# at once. The conformance tests read ../shared/conformance when present. The Python package's
# tests (python/tests, pytest) run in the release build, which alone builds the package
# (configure.sh says why), by Debian's /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh test
jobs=$(nproc)
passed=0
failed=0
# Runs ctest in build dir $1, logging to $2, with the environment settings after them; adds
# its counts, and stops the script on a failure.
run_ctest() {
  local dir=$1 log=$2 status=0
  shift 2
  env "$@" ctest --test-dir "$dir" --output-on-failure -j "$jobs" 2>&1 | tee "$log" || status=$?
  local total bad
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  bad=$(sed -n 's/.* \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
  passed=$((passed + ${total:-0} - ${bad:-0}))
  failed=$((failed + ${bad:-0}))
  [ "$status" -eq 0 ] || { echo "tests: $passed passed, $failed failed"; exit "$status"; }
}
for config in release asan; do
  dir=build/$config
  ./scripts/configure.sh "$config"
  cmake --build "$dir" -j "$jobs"
  echo "== tests ($config)"
  run_ctest "$dir" "$dir/ctest.log"
  if [ "$config" = release ]; then
    # Again with the kernels capped at AVX2 (onyx/core/cpu_tier.h), so that a host with
    # AVX-512 or AMX proves the path of a CPU with AVX2 alone too.
    echo "== tests ($config, ONYX_MAX_ISA=avx2)"
    run_ctest "$dir" "$dir/ctest-avx2.log" ONYX_MAX_ISA=avx2
  fi
  [ "$config" = release ] || continue
  echo "== Python tests ($config)"
  pylog=$dir/pytest.log
  status=0
  PYTHONPATH="$PWD/$dir/python" /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests \
    2>&1 | tee "$pylog" || status=$?
  summary=$(tail -1 "$pylog")
  py_passed=$(sed -n 's/.*[^0-9]\([0-9][0-9]*\) passed.*/\1/p; s/^\([0-9][0-9]*\) passed.*/\1/p' <<<"$summary" | head -1)
  py_failed=$(sed -n 's/.*[^0-9]\([0-9][0-9]*\) failed.*/\1/p; s/^\([0-9][0-9]*\) failed.*/\1/p' <<<"$summary" | head -1)
  passed=$((passed + ${py_passed:-0}))
  failed=$((failed + ${py_failed:-0}))
  if [ "$status" -ne 0 ] && [ -z "$py_failed" ]; then failed=$((failed + 1)); fi
  [ "$status" -eq 0 ] || { echo "tests: $passed passed, $failed failed"; exit "$status"; }
done
fuzz_seconds=${ONYX_FUZZ_SECONDS:-15}
if [ "$fuzz_seconds" -gt 0 ]; then
  for target in fuzz_wire_reader fuzz_model_decoder fuzz_model_differential fuzz_text_printer \
    fuzz_text_parser fuzz_checker fuzz_npy fuzz_optimize fuzz_convert_opset fuzz_draw; do
    ONYX_FUZZ_BUILD_DIR=build/asan ONYX_FUZZ_BUILD_JOBS=$jobs ./scripts/fuzz.sh "$target" \
      "$fuzz_seconds"
  done
fi
echo "tests: $passed passed, $failed failed"
