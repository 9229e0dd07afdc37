#!/usr/bin/env bash
# Redraws the pictures in docs/draw/ with the `onyx` of a build (default build/release):
#   tiny_cnn.svg              the bundled example (README)
#   optimize_diff.svg         docs/draw/exported_block.onnxtxt against itself after
#                             `onyx optimize` (docs/draw.md)
#
#   scripts/draw_docs.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
onyx=${1:-build/release}/tools/onyx/onyx
[ -x "$onyx" ] || { echo "no $onyx: build onyx first (README)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$onyx" draw examples/tiny_cnn.onnx -o docs/draw/tiny_cnn.svg
"$onyx" convert docs/draw/exported_block.onnxtxt "$scratch/before.onnx"
"$onyx" optimize "$scratch/before.onnx" "$scratch/after.onnx"
"$onyx" draw "$scratch/before.onnx" --diff "$scratch/after.onnx" -o docs/draw/optimize_diff.svg \
  --title "exported_block.onnxtxt before and after onyx optimize"
echo "wrote docs/draw/tiny_cnn.svg and docs/draw/optimize_diff.svg"
