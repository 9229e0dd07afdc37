#!/usr/bin/env bash
# The inference benchmark: onyx against Debian python3-onnx's
# onnx.shape_inference.infer_shapes(data_prop=True) on a 10,240-node transformer with
# symbolic batch and sequence dims (bench/make_infer_model.py), in one run: the time ratio
# and how many node outputs each knows the shape of. Under a minute on 2 cores.
#
#   bench/infer_bench.sh [MODELS_FOLDER]        (REPS=n: repetitions, default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/bench
models=${1:-build/bench-models}
reps=${REPS:-7}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF >/dev/null
cmake --build "$build" --target onyx_bench_infer -j "$(nproc)" >/dev/null
/usr/bin/python3 bench/make_infer_model.py "$models"
model="$models/infer_transformer.onnx"
results=$build/results
mkdir -p "$results"
echo "onyx: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
"$build/bench/onyx_bench_infer" "$model" --reps="$reps" | tee "$results/infer-onyx.txt"
/usr/bin/python3 bench/infer_bench.py "$model" --reps="$reps" | tee "$results/infer-onnx.txt"
echo "== onnx CPU time / onyx CPU time (medians; target >= 10x), and outputs known (target: onyx >= onnx)"
awk -F'|' '
  /^RESULT\|/ && $3 == "infer" { if (FILENAME ~ /onyx/) onyx_ms = $4; else onnx_ms = $4 }
  /^COUNT\|/ { if (FILENAME ~ /onyx/) onyx_n[$3] = $4; else onnx_n[$3] = $4 }
  END {
    ratio = onnx_ms / onyx_ms
    printf "SUMMARY|(3) inference: onyx %.2f ms vs onnx %.2f ms|%.1fx|>= 10x|%s\n", onyx_ms, onnx_ms,
      ratio, (ratio >= 10 ? "holds" : "MISSED")
    for (k in onyx_n) {
      printf "SUMMARY|(3) outputs %s: onyx %d, onnx %d||onyx >= onnx|%s\n", k, onyx_n[k], onnx_n[k],
        (onyx_n[k] + 0 >= onnx_n[k] + 0 ? "holds" : "MISSED")
    }
  }' "$results/infer-onyx.txt" "$results/infer-onnx.txt" | sort | tee "$results/infer-summary.txt"
