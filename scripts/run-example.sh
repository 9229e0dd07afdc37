#!/usr/bin/env bash
# Builds onyx and runs its main job on the bundled example model: a summary, the check, the
# inferred output types, a round trip through the binary writer that must give back the very
# same bytes, then a run of the model on an image (the evaluator), the optimiser with a check
# that the optimised model computes what the original does, and the model's picture.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
./scripts/configure.sh release
cmake --build build/release -j "$(nproc)" --target onyx_tool
onyx=build/release/tools/onyx/onyx
model=examples/tiny_cnn.onnx
$onyx info "$model"
$onyx check "$model"
$onyx infer "$model"
out=$(mktemp -d)
$onyx convert "$model" "$out/roundtrip.onnx"
cmp "$model" "$out/roundtrip.onnx" && echo "round trip: byte-identical ($(stat -c %s "$model") bytes)"
# Run it on an image of 0.5s (a .npy written by NumPy, as users' inputs are).
/usr/bin/python3 -c "import numpy; numpy.save('$out/image.npy', numpy.full((1, 3, 32, 32), 0.5, numpy.float32))"
$onyx run "$model" --input image="$out/image.npy" --output-dir "$out/outputs"
# Latency and where the time goes, on made-up inputs (N, the batch, set to 1).
$onyx run "$model" --dim N=1 --repeat 20 --profile --threads 1
# Simplified: what each pass did, then both models run on two sets of made-up inputs.
$onyx optimize "$model" "$out/optimized.onnx" --profile --verify 2 --dim N=1
# Its picture: one HTML file to open in a browser (pan, zoom, search, a node's attributes).
$onyx draw "$model" -o build/release/tiny_cnn.html
echo "picture: build/release/tiny_cnn.html"
rm -rf "$out"
