#!/usr/bin/env bash
# Builds onyx and runs its main job on the bundled example model: a summary, the check, the
# inferred output types, then a round trip through the binary writer that must give back the
# very same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/release -j "$(nproc)" --target onyx_tool
onyx=build/release/tools/onyx/onyx
model=examples/tiny_cnn.onnx
$onyx info "$model"
$onyx check "$model"
$onyx infer "$model"
out=$(mktemp -d)
$onyx convert "$model" "$out/roundtrip.onnx"
cmp "$model" "$out/roundtrip.onnx" && echo "round trip: byte-identical ($(stat -c %s "$model") bytes)"
rm -rf "$out"
