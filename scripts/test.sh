#!/usr/bin/env bash
# Builds onyx twice (scripts/configure.sh says how) and runs every test in both builds:
# optimised with g++, and with clang under AddressSanitizer + UndefinedBehaviorSanitizer with
# the development checks on. The sanitizer build also carries the libFuzzer coverage
# instrumentation, so the same build gives the fuzz targets, each of which then runs briefly
# (ONYX_FUZZ_SECONDS, default 15; 0 skips) so that they keep building and a shallow bug shows
# at once. The conformance tests read ../shared/conformance when present. The Python package's
# tests (python/tests, pytest) run in the release build (configure.sh says why not in the
# sanitizer build), by Debian's /usr/bin/python3. Between the two, the concurrency tests
# (ctest's label and pytest's marker `concurrency`) run again under ThreadSanitizer, in a third
# build of just what they need (configure.sh tsan), mostly the release build's objects.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh test
jobs=$(nproc)
passed=0
failed=0
# The arguments of run_ctest and run_pytest: build dir, log file, environment settings
# (NAME=VALUE...), then after `--` arguments for ctest or pytest. Both run under the command
# in the array `launcher` (none unless set).
launcher=()
split_arguments() {
  settings=()
  extra=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do settings+=("$1"); shift; done
  [ $# -eq 0 ] || { shift; extra=("$@"); }
}
# Stops the script with the counts so far when the status $1 is a failure.
stop_on_failure() {
  [ "$1" -eq 0 ] || { echo "tests: $passed passed, $failed failed"; exit "$1"; }
}
# Runs ctest in a build dir; adds its counts, and stops the script on a failure.
run_ctest() {
  local dir=$1 log=$2 status=0
  shift 2
  split_arguments "$@"
  "${launcher[@]}" env "${settings[@]}" ctest --test-dir "$dir" --output-on-failure -j "$jobs" \
    "${extra[@]}" 2>&1 | tee "$log" || status=$?
  local total bad
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  bad=$(sed -n 's/.* \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
  passed=$((passed + ${total:-0} - ${bad:-0}))
  failed=$((failed + ${bad:-0}))
  stop_on_failure "$status"
}
# Runs python/tests (pytest, by Debian's /usr/bin/python3) on a build dir's package; adds its
# counts, and stops the script on a failure.
run_pytest() {
  local dir=$1 log=$2 status=0
  shift 2
  split_arguments "$@"
  "${launcher[@]}" env "${settings[@]}" PYTHONPATH="$PWD/$dir/python" /usr/bin/python3 \
    -m pytest -q -p no:cacheprovider "${extra[@]}" python/tests 2>&1 | tee "$log" || status=$?
  local summary py_passed py_failed
  summary=$(tail -1 "$log")
  py_passed=$(sed -n 's/.*[^0-9]\([0-9][0-9]*\) passed.*/\1/p; s/^\([0-9][0-9]*\) passed.*/\1/p' <<<"$summary" | head -1)
  py_failed=$(sed -n 's/.*[^0-9]\([0-9][0-9]*\) failed.*/\1/p; s/^\([0-9][0-9]*\) failed.*/\1/p' <<<"$summary" | head -1)
  passed=$((passed + ${py_passed:-0}))
  failed=$((failed + ${py_failed:-0}))
  if [ "$status" -ne 0 ] && [ -z "$py_failed" ]; then failed=$((failed + 1)); fi
  stop_on_failure "$status"
}

dir=build/release
./scripts/configure.sh release
cmake --build "$dir" -j "$jobs"
echo "== tests (release)"
run_ctest "$dir" "$dir/ctest.log"
# Again with the kernels capped at AVX2 (onyx/core/cpu_tier.h), so that a host with AVX-512 or
# AMX proves the path of a CPU with AVX2 alone too.
echo "== tests (release, ONYX_MAX_ISA=avx2)"
run_ctest "$dir" "$dir/ctest-avx2.log" ONYX_MAX_ISA=avx2
echo "== Python tests (release)"
run_pytest "$dir" "$dir/pytest.log"

# ThreadSanitizer, in build/tsan: the concurrency tests' binary and the Python package, built
# after the release build, whose objects it reuses for the code it leaves uninstrumented
# (configure.sh says why and what). Python loads the runtime first (LD_PRELOAD), the same
# libtsan the extension module was linked with. The runtime needs the address space laid out
# as it expects, which a kernel with wide address randomisation does not give; setarch -R
# turns the randomisation off where the system allows it. pytest captures sys.stdout and
# sys.stderr only, so that a race reported in a test that passes (the runtime writes to the
# stderr file, and fails the run at its exit) is in the log too.
dir=build/tsan
./scripts/configure.sh tsan
cmake --build "$dir" -j "$jobs" --target onyx_concurrency_tests onyx_python onyx_python_files
tsan=("TSAN_OPTIONS=suppressions=$PWD/tests/tsan.supp")
runtime=$(ldd "$dir"/python/onyx/_onyx*.so | sed -n 's/.*libtsan[^ ]* => \([^ ]*\) .*/\1/p')
if setarch "$(uname -m)" -R true 2>/dev/null; then launcher=(setarch "$(uname -m)" -R); fi
echo "== concurrency tests (tsan)"
run_ctest "$dir" "$dir/ctest.log" "${tsan[@]}" -- -L concurrency
echo "== Python concurrency tests (tsan)"
run_pytest "$dir" "$dir/pytest.log" "${tsan[@]}" "LD_PRELOAD=$runtime" -- -m concurrency \
  --capture=sys
launcher=()

dir=build/asan
./scripts/configure.sh asan
cmake --build "$dir" -j "$jobs"
echo "== tests (asan)"
run_ctest "$dir" "$dir/ctest.log"
fuzz_seconds=${ONYX_FUZZ_SECONDS:-15}
if [ "$fuzz_seconds" -gt 0 ]; then
  for target in fuzz_wire_reader fuzz_model_decoder fuzz_model_differential fuzz_text_printer \
    fuzz_text_parser fuzz_checker fuzz_npy fuzz_optimize fuzz_convert_opset fuzz_draw fuzz_surgery; do
    ONYX_FUZZ_BUILD_DIR=build/asan ONYX_FUZZ_BUILD_JOBS=$jobs ./scripts/fuzz.sh "$target" \
      "$fuzz_seconds"
  done
fi
echo "tests: $passed passed, $failed failed"
