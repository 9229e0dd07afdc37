#!/usr/bin/env bash
# Installs the built onyx into a temporary prefix, builds a consumer project against it with
# find_package(onyx), and runs the consumer (static and shared) on the example model.
set -euo pipefail
build_dir=$1
source_dir=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
cmake -S "$source_dir/tests/install/consumer" -B "$prefix/consumer-build" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
for kind in static shared; do
  out=$(LD_LIBRARY_PATH="$prefix/lib" "$prefix/consumer-build/consumer_$kind" "$source_dir/examples/tiny_cnn.onnx")
  [ "$out" = "nodes 9" ] || { echo "consumer_$kind printed: $out"; exit 1; }
done
echo "find_package(onyx): static and shared consumers work"
