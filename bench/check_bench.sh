#!/usr/bin/env bash
# The checker benchmark: onyx against Debian python3-onnx's check_model(full_check=True) on
# a 200,000-node graph and a transformer-like model (bench/make_check_models.py), in one
# run, printed as ratios. About a minute on 2 cores.
#
#   bench/check_bench.sh [MODELS_FOLDER]        (REPS=n: repetitions, default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/bench
models=${1:-build/bench-models}
reps=${REPS:-5}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF >/dev/null
cmake --build "$build" --target onyx_bench_check -j "$(nproc)" >/dev/null
/usr/bin/python3 bench/make_check_models.py "$models"
list=("$models/check200k.onnx" "$models/transformer.onnx")
results=$build/results
mkdir -p "$results"
echo "onyx: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
"$build/bench/onyx_bench_check" "${list[@]}" --reps="$reps" | tee "$results/check-onyx.txt"
/usr/bin/python3 bench/check_bench.py "${list[@]}" --reps="$reps" | tee "$results/check-onnx.txt"
echo "== ratios (onnx CPU time / onyx CPU time, medians; target >= 10x)"
awk -F'|' '/^RESULT\|/ { key = $2 "|" $3; if (FILENAME ~ /onyx/) onyx[key] = $4; else onnx[key] = $4 }
  END {
    for (key in onyx) {
      split(key, part, "|")
      ratio = onnx[key] / onyx[key]
      printf "SUMMARY|(4) %s %s: onyx %.2f ms vs onnx %.2f ms|%.1fx|>= 10x|%s\n", part[1], part[2],
        onyx[key], onnx[key], ratio, (ratio >= 10 ? "holds" : "MISSED")
    }
  }' "$results/check-onyx.txt" "$results/check-onnx.txt" | sort | tee "$results/check-summary.txt"
