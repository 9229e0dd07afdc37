#!/usr/bin/env bash
# Builds onyx twice (optimised, and with AddressSanitizer + UndefinedBehaviorSanitizer) and
# runs every test in both. The conformance tests read ../shared/conformance when present.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
jobs=$(nproc)
for config in release asan; do
  dir=build/$config
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
  [ $config = asan ] && flags+=(-DONYX_SANITIZE=ON)
  cmake -S . -B "$dir" -G Ninja "${flags[@]}" >/dev/null
  cmake --build "$dir" -j "$jobs"
  echo "== tests ($config)"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
done
