#!/usr/bin/env bash
# Builds onyx twice and runs every test in both builds: optimised with g++, and with clang
# under AddressSanitizer + UndefinedBehaviorSanitizer. The sanitizer build also carries the
# libFuzzer coverage instrumentation, so the same build gives the fuzz targets, each of which
# then runs briefly (ONYX_FUZZ_SECONDS, default 20; 0 skips) so that they keep building and a
# shallow bug shows at once. The conformance tests read ../shared/conformance when present.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
jobs=$(nproc)
passed=0
failed=0
for config in release asan; do
  dir=build/$config
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
  compilers=()
  case $config in
    release)
      # No debug information: it makes a third of the compile time, and a failure is
      # debugged in the sanitizer build, whose reports name file and line.
      flags+=("-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG")
      ;;
    asan)
      # One clang build serves the sanitized tests and the fuzz targets (a third full build
      # of the library cost CI about 15 minutes). -O1 with line tables only: reports keep
      # file and line, and a test file compiles in 26 s of CPU instead of 32 at -O2 -g.
      flags+=(-DONYX_SANITIZE=ON -DONYX_FUZZ=ON
              "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG")
      compilers=(CC=clang CXX=clang++)
      ;;
  esac
  env "${compilers[@]}" cmake -S . -B "$dir" -G Ninja "${flags[@]}" >/dev/null
  cmake --build "$dir" -j "$jobs"
  echo "== tests ($config)"
  log=$dir/ctest.log
  status=0
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" 2>&1 | tee "$log" || status=$?
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  bad=$(sed -n 's/.* \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
  passed=$((passed + ${total:-0} - ${bad:-0}))
  failed=$((failed + ${bad:-0}))
  [ "$status" -eq 0 ] || { echo "tests: $passed passed, $failed failed"; exit "$status"; }
done
fuzz_seconds=${ONYX_FUZZ_SECONDS:-20}
if [ "$fuzz_seconds" -gt 0 ]; then
  for target in fuzz_wire_reader fuzz_model_decoder fuzz_model_differential fuzz_text_printer \
    fuzz_text_parser fuzz_checker fuzz_npy; do
    ONYX_FUZZ_BUILD_DIR=build/asan ONYX_FUZZ_BUILD_JOBS=$jobs ./scripts/fuzz.sh "$target" \
      "$fuzz_seconds"
  done
fi
echo "tests: $passed passed, $failed failed"
