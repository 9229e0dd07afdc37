#!/usr/bin/env bash
# The serving benchmark (issue 45): one onyx Evaluator against one onnxruntime-node 1.30
# InferenceSession, each run by 1, 2, 4 and 8 concurrent callers, every run at one intra-op
# thread, a fixed number of runs per model and caller count, on the ResNet-50, encoder and
# MobileNetV3-Small (Paddle) models of bench/make_eval_models.py. Per row it prints
#   - throughput (runs/s) of both and the ratio onyx / onnxruntime (target: at least 1.0);
#   - p50 and p99 latency of both and the p99 ratio onyx / onnxruntime (target: at most 1.2);
#   - cores busy (the process's CPU time over the wall-clock time): whether the callers'
#     runs really ran side by side;
#   - whether every concurrent run of onyx gave the lone run's outputs bit for bit (target:
#     all of them; a row with a mismatch fails).
# onyx_bench_serve (serve_bench.cc) and serve_bench_ort.js say how each side is timed.
# onnxruntime-node is installed as for bench/eval_bench.sh, into build/bench-node.
#
#   bench/serve_bench.sh [MODELS_FOLDER]
#     RUNS=n               timed runs per model and caller count, for every model (default
#                          per model, about 10 s per row on 2 cores at one caller: ResNet-50
#                          200, the encoder 300, MobileNetV3-Small 8000)
#     CALLERS=1,2,4,8      the caller counts
#     MODELS="a.onnx ..."  only these models
#     PAIRS=n              rounds of the one-caller comparison run interleaved (default 3;
#                          0: none): see the second table below
#     ONYX=DIR             a build folder configured with -DONYX_BENCH=ON that holds
#                          bench/onyx_bench_serve (default: configured and built here, in
#                          build/bench); the results go to build/bench/results all the same
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ONYX:-build/bench}
models=${1:-build/bench-models}
callers=${CALLERS:-1,2,4,8}
node_dir=build/bench-node
default_models="eval_resnet50.onnx eval_encoder.onnx eval_mbv3_small_paddle.onnx"
model_list=${MODELS:-$default_models}
runs_for() {
  if [ -n "${RUNS:-}" ]; then
    echo "$RUNS"
    return
  fi
  case $1 in
    eval_resnet50.onnx) echo 200 ;;
    eval_encoder.onnx) echo 300 ;;
    eval_mbv3_small_paddle.onnx) echo 8000 ;;
    *) echo 100 ;;
  esac
}

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (nproc)"
echo "onyx: $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(date -u +%Y-%m-%dT%H:%MZ)"
if [ -z "${ONYX:-}" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF \
    >/dev/null
  cmake --build "$build" --target onyx_bench_serve -j "$(nproc)" >/dev/null
fi
if [ ! -e "$node_dir/node_modules/onnxruntime-node/package.json" ]; then
  mkdir -p "$node_dir"
  cp bench/package.json "$node_dir/"
  (cd "$node_dir" && npm install --ignore-scripts --no-audit --no-fund >/dev/null)
fi
/usr/bin/python3 bench/make_eval_models.py "$models"
results=build/bench/results
mkdir -p "$results"
out=$results/serve.txt
: >"$out"
# onnxruntime-node runs a session's runs on the JavaScript thread (serve_bench_ort.js); a
# pool as large as the most callers lets a version that moves them to libuv's pool show it.
export UV_THREADPOOL_SIZE=8
# A run that fails is reported and leaves its rows empty; the others go on.
for model in $model_list; do
  runs=$(runs_for "$model")
  "$build/bench/onyx_bench_serve" "$models/$model" --callers="$callers" --runs="$runs" |
    tee -a "$out" || echo "onyx failed on $model"
  NODE_PATH=$node_dir/node_modules node bench/serve_bench_ort.js "$models/$model" "$callers" \
    "$runs" | tee -a "$out" || echo "onnxruntime failed on $model"
done
echo "== one session, C callers, one intra-op thread per run: onyx against onnxruntime-node" \
  "(throughput ratio target >= 1.0, p99 ratio <= 1.2, onyx's outputs identical to a lone run's)"
awk -F'|' -v models="$model_list" -v callers="$callers" '
  function ms(value) {
    return sprintf(value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value)
  }
  /^SERVE\|/ {
    key = $3 SUBSEP $4
    rate[$2, key] = $6; p50[$2, key] = $7; p99[$2, key] = $8; busy[$2, key] = $9
    mismatches[$2, key] = $10; runs[key] = $5
  }
  END {
    printf "| model | callers | runs | onyx runs/s | ort runs/s | ratio | onyx p50 / p99 |" \
      " ort p50 / p99 | p99 ratio | cores busy onyx / ort | outputs identical | verdict |\n"
    printf "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n"
    model_count = split(models, model_names, " ")
    caller_count = split(callers, caller_list, ",")
    for (m = 1; m <= model_count; ++m) {
      for (c = 1; c <= caller_count; ++c) {
        key = model_names[m] SUBSEP caller_list[c]
        onyx = ("onyx", key) in rate
        ort = ("onnxruntime", key) in rate
        if (!onyx || !ort) {
          printf "| %s | %s | | %s | %s | | | | | | | MISSED |\n", model_names[m], caller_list[c],
            (onyx ? rate["onyx", key] : "failed"), (ort ? rate["onnxruntime", key] : "failed")
          continue
        }
        ratio = rate["onyx", key] / rate["onnxruntime", key]
        p99_ratio = p99["onyx", key] / p99["onnxruntime", key]
        same = mismatches["onyx", key] == 0
        identical = same ? "yes" : "NO (" mismatches["onyx", key] " runs differ)"
        if (mismatches["onnxruntime", key] != 0) {
          identical = identical "; ort: " mismatches["onnxruntime", key] " runs differ"
        }
        holds = ratio >= 1.0 && p99_ratio <= 1.2 && same
        printf "| %s | %s | %s | %.1f | %.1f | %.2f | %s / %s ms | %s / %s ms | %.2f |" \
          " %.2f / %.2f | %s | %s |\n", model_names[m], caller_list[c], runs[key],
          rate["onyx", key], rate["onnxruntime", key], ratio, ms(p50["onyx", key]),
          ms(p99["onyx", key]), ms(p50["onnxruntime", key]), ms(p99["onnxruntime", key]),
          p99_ratio, busy["onyx", key], busy["onnxruntime", key], identical,
          (holds ? "holds" : "MISSED")
      }
    }
  }' "$out" | tee "$results/serve-summary.txt"

# One caller, interleaved: a run alone measures single-run speed, which drifts on a shared
# host by more than a 5% target over the minutes the table above takes (up to 1.6x for both
# runtimes, bench/README.md "Serving with turns"). Here onyx and onnxruntime alternate, PAIRS
# rounds of a third of the runs each, and the median of the rounds' ratios decides the row.
pairs=${PAIRS:-3}
if [ "$pairs" -gt 0 ]; then
  echo "== one caller, onyx and onnxruntime-node alternating, $pairs rounds (the median ratio" \
    "decides; target >= 1.0)"
  echo "| model | runs per round | onyx runs/s by round | ort runs/s by round | ratios | median | verdict |"
  echo "| --- | ---: | --- | --- | --- | ---: | --- |"
  for model in $model_list; do
    round_runs=$(($(runs_for "$model") / 3))
    rounds=""
    for ((round = 1; round <= pairs; ++round)); do
      onyx_rate=$("$build/bench/onyx_bench_serve" "$models/$model" --callers=1 \
        --runs="$round_runs" | awk -F'|' '/^SERVE\|/ { print $6 }')
      ort_rate=$(NODE_PATH=$node_dir/node_modules node bench/serve_bench_ort.js "$models/$model" \
        1 "$round_runs" | awk -F'|' '/^SERVE\|/ { print $6 }')
      rounds="$rounds ${onyx_rate:-0}:${ort_rate:-0}"
    done
    echo "$rounds" | awk -v model="$model" -v runs="$round_runs" '{
      for (i = 1; i <= NF; ++i) {
        split($i, rates, ":")
        onyx = onyx (i > 1 ? ", " : "") sprintf("%.1f", rates[1])
        ort = ort (i > 1 ? ", " : "") sprintf("%.1f", rates[2])
        ratio[i] = rates[2] > 0 ? rates[1] / rates[2] : 0
        ratios = ratios (i > 1 ? ", " : "") sprintf("%.2f", ratio[i])
      }
      for (i = 1; i <= NF; ++i) {  # insertion sort of the ratios, for the median
        for (j = i; j > 1 && ratio[j - 1] > ratio[j]; --j) {
          swap = ratio[j]; ratio[j] = ratio[j - 1]; ratio[j - 1] = swap
        }
      }
      median = NF % 2 ? ratio[(NF + 1) / 2] : (ratio[NF / 2] + ratio[NF / 2 + 1]) / 2
      printf "| %s | %d | %s | %s | %s | %.2f | %s |\n", model, runs, onyx, ort, ratios, median,
        (median >= 1.0 ? "holds" : "MISSED")
    }'
  done | tee -a "$results/serve-summary.txt"
fi
