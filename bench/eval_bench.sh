#!/usr/bin/env bash
# The evaluator benchmark: onyx against onnxruntime-node 1.30 (CPU) on a ResNet-50-shaped
# convolution net at batch 1 and a 6-block transformer encoder (sequence 128, hidden 512)
# (bench/make_eval_models.py), at 1 and 2 threads, side by side in one run: median latency
# and the ratio onyx / onnxruntime (target: at most 1.5). onnxruntime-node is installed from
# npm into build/bench-node (--ignore-scripts: its install script would fetch GPU
# libraries); it is used here only.
#
#   bench/eval_bench.sh [MODELS_FOLDER]        (REPS=n: timed runs, default 15)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/bench
models=${1:-build/bench-models}
reps=${REPS:-15}
node_dir=build/bench-node
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF >/dev/null
cmake --build "$build" --target onyx_bench_eval -j "$(nproc)" >/dev/null
if [ ! -e "$node_dir/node_modules/onnxruntime-node/package.json" ]; then
  mkdir -p "$node_dir"
  cp bench/package.json "$node_dir/"
  (cd "$node_dir" && npm install --ignore-scripts --no-audit --no-fund >/dev/null)
fi
/usr/bin/python3 bench/make_eval_models.py "$models"
results=$build/results
mkdir -p "$results"
out=$results/eval.txt
: >"$out"
echo "onyx: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
for model in eval_resnet50.onnx eval_encoder.onnx; do
  for threads in 1 2; do
    "$build/bench/onyx_bench_eval" "$models/$model" --threads="$threads" --reps="$reps" | tee -a "$out"
    NODE_PATH=$node_dir/node_modules node bench/eval_bench_ort.js "$models/$model" "$threads" "$reps" |
      tee -a "$out"
  done
done
echo "== onyx median / onnxruntime median (target <= 1.5)"
awk -F'|' '
  /^RESULT\|/ { key = $3 " at " $4 " thread" ($4 == 1 ? "" : "s"); ms[$2, key] = $5; keys[key] = 1 }
  END {
    for (k in keys) {
      ratio = ms["onyx", k] / ms["onnxruntime", k]
      printf "SUMMARY|%s: onyx %.1f ms, onnxruntime %.1f ms|%.2f|<= 1.5|%s\n", k, ms["onyx", k],
        ms["onnxruntime", k], ratio, (ratio <= 1.5 ? "holds" : "MISSED")
    }
  }' "$out" | sort | tee "$results/eval-summary.txt"
