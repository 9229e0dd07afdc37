#!/usr/bin/env bash
# The evaluator benchmark: onyx against onnxruntime-node 1.30 (CPU) on the models of
# bench/make_eval_models.py, at 1 and 2 threads, side by side in one run. Two models of the
# kernels' speed (a ResNet-50-shaped convolution net with its batch normalization folded, a
# 6-block transformer encoder) and five float32 models as exporters write them (MobileNetV3,
# a DB text detector, ResNet-50 with BatchNormalization unfolded, a tf2onnx NHWC CNN, a
# 2,000-node elementwise chain) and, for issue 32, three small ones run per camera crop or
# audio frame (a Paddle2ONNX MobileNetV3-Small with its weights as Constant nodes, a log-mel
# front end, a TorchScript voice-activity detector with its LSTM inside nested Ifs). With
# QUANT=1, issue 33's rows instead, from bench/make_quant_models.py: a float32 U²-Net-shaped
# net (eval_u2net), and ResNet-50, that U²-Net and the encoder quantized to int8 as
# onnxruntime's quantize_dynamic writes them (quant_*_dynamic: DynamicQuantizeLinear,
# ConvInteger / MatMulInteger) and as quantize_static writes QDQ (quant_*_qdq: QuantizeLinear
# and DequantizeLinear pairs, int8 per-channel weights, int32 biases), and in float16
# (fp16_*: Casts at the input and output). Per model and thread count it prints
#   - the warm median latency and the ratio onyx / onnxruntime (target: at most 1.5; 1.2 for
#     issue 32's and issue 33's rows);
#   - the first run, onyx's load + prepare + run against onnxruntime's session creation +
#     run (target: at most 1.0; 1.2 for issue 32's rows);
#   - how far onyx's outputs are from onnxruntime's: the largest absolute difference over
#     the largest absolute output of onnxruntime ("DIFFERS" above 1e-3), and whether onyx
#     gives the same bits at 1 and 2 threads.
# onnxruntime-node is installed from npm into build/bench-node (--ignore-scripts: its install
# script would fetch GPU libraries); it is used here only.
#
#   bench/eval_bench.sh [MODELS_FOLDER]
#     REPS=n               timed runs per model and thread count (default 15)
#     FIRSTS=n             first runs per model and thread count, each a process of its
#                          own, onyx's and onnxruntime's taking turns; the median counts
#                          (default 9: one process's first run varies by 20% here, and one
#                          in four or five takes half as long again; five let two such
#                          outliers move the median)
#     MODELS="a.onnx ..."  only these models
#     TIERS="native avx2"  the CPU tiers onyx runs at (onyx/core/cpu_tier.h): native, and
#                          each name given run again under ONYX_MAX_ISA=name (rows "at
#                          NAME"); default "native avx2" where the CPU has AVX-512, else
#                          "native". onnxruntime cannot be capped: it runs native, and a
#                          capped row sets onyx at that tier beside it.
#     QUANT=1              issue 33's rows (above) instead of the default list; naming any
#                          of them in MODELS works too. Their QDQ models' scales come from a
#                          run of the float model in onyx's Python package, built here too
#                          (-DONYX_PYTHON=ON)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/bench
models=${1:-build/bench-models}
reps=${REPS:-15}
firsts=${FIRSTS:-9}
node_dir=build/bench-node
default_models="eval_resnet50.onnx eval_encoder.onnx eval_mobilenetv3.onnx \
eval_db_detector.onnx eval_resnet50_bn.onnx eval_nhwc_cnn.onnx eval_chain.onnx \
eval_mbv3_small_paddle.onnx eval_logmel.onnx eval_recurrent_vad.onnx"
# Issue 33's rows and issue 43's (the U²-Net at 1024x1024): what make_quant_models.py writes.
quant_models="eval_u2net.onnx quant_resnet50_dynamic.onnx \
quant_u2net_dynamic.onnx quant_encoder_dynamic.onnx quant_resnet50_qdq.onnx \
quant_u2net_qdq.onnx quant_encoder_qdq.onnx fp16_resnet50.onnx fp16_u2net.onnx \
fp16_encoder.onnx eval_u2net1024.onnx quant_u2net1024_dynamic.onnx quant_u2net1024_qdq.onnx \
fp16_u2net1024.onnx"
if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
  tiers=${TIERS:-native avx2}
else
  tiers=${TIERS:-native}
fi
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1); onyx tiers: $tiers"
if [ "${QUANT:-0}" = 1 ]; then
  model_list=${MODELS:-$quant_models}
else
  model_list=${MODELS:-$default_models}
fi
targets=onyx_bench_eval
quant=0
for model in $model_list; do
  if [[ " $quant_models " == *" $model "* ]]; then quant=1; fi
done
python_flags=()
if [ "$quant" = 1 ]; then
  python_flags=(-DONYX_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3)
  targets="$targets onyx_python"
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF \
  "${python_flags[@]}" >/dev/null
cmake --build "$build" --target $targets -j "$(nproc)" >/dev/null
if [ ! -e "$node_dir/node_modules/onnxruntime-node/package.json" ]; then
  mkdir -p "$node_dir"
  cp bench/package.json "$node_dir/"
  (cd "$node_dir" && npm install --ignore-scripts --no-audit --no-fund >/dev/null)
fi
/usr/bin/python3 bench/make_eval_models.py "$models"
if [ "$quant" = 1 ]; then
  PYTHONPATH=$build/python /usr/bin/python3 bench/make_quant_models.py "$models"
fi
results=$build/results
mkdir -p "$results"
out=$results/eval.txt
: >"$out"
echo "onyx: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
# A run that fails is reported and leaves its rows empty; the others go on.
for model in $model_list; do
  for threads in 1 2; do
    outputs=$results/${model%.onnx}.onyx$threads.bin
    rm -f "$outputs"
    "$build/bench/onyx_bench_eval" "$models/$model" --threads="$threads" --reps="$reps" \
      --outputs="$outputs" | tee -a "$out" || echo "onyx failed on $model"
    for tier in $tiers; do
      [ "$tier" = native ] && continue
      # The same runs capped; their outputs against the native run's (integer operators
      # give the same bits at every tier; float kernels may round otherwise).
      tier_outputs=$results/${model%.onnx}.onyx$threads.$tier.bin
      ONYX_MAX_ISA=$tier "$build/bench/onyx_bench_eval" "$models/$model" --threads="$threads" \
        --reps="$reps" --outputs="$tier_outputs" | sed "s/^\(RESULT\|FIRST\)|onyx|/\1|onyx@$tier|/" |
        tee -a "$out" || echo "onyx at $tier failed on $model"
      if [ -e "$outputs" ] && [ -e "$tier_outputs" ]; then
        cmp -s "$outputs" "$tier_outputs" && same=identical || same=differ
        echo "TIER|$model|$threads|$tier|$same" | tee -a "$out"
      fi
    done
    NODE_PATH=$node_dir/node_modules node bench/eval_bench_ort.js "$models/$model" "$threads" \
      "$reps" $([ -e "$outputs" ] && echo "$outputs") | tee -a "$out" ||
      echo "onnxruntime failed on $model"
    for ((again = 1; again < firsts; ++again)); do
      "$build/bench/onyx_bench_eval" "$models/$model" --threads="$threads" --reps=1 |
        grep '^FIRST|' | tee -a "$out" || true
      NODE_PATH=$node_dir/node_modules node bench/eval_bench_ort.js "$models/$model" \
        "$threads" 1 | grep '^FIRST|' | tee -a "$out" || true
    done
  done
  one=$results/${model%.onnx}.onyx1.bin
  two=$results/${model%.onnx}.onyx2.bin
  if [ ! -e "$one" ] || [ ! -e "$two" ]; then
    echo "THREADS|$model|not compared" | tee -a "$out"
  elif cmp -s "$one" "$two"; then
    echo "THREADS|$model|identical" | tee -a "$out"
  else
    echo "THREADS|$model|differ" | tee -a "$out"
  fi
done
# Targets: issue 20's for the float32 models (warm at most 1.5, first run at most 1.0); issue
# 32's for its four rows, the small models run per crop or frame and the tf2onnx NHWC CNN
# (both at most 1.2); issue 33's for the quantized, float16 and U²-Net rows (warm at most 1.2,
# first run at most 1.0).
issue32_models="eval_mbv3_small_paddle.onnx eval_logmel.onnx eval_recurrent_vad.onnx \
eval_nhwc_cnn.onnx"
echo "== onyx / onnxruntime: warm median (target <= 1.5, issue 32's and 33's rows 1.2), first" \
  "run (target <= 1.0, issue 32's rows 1.2), outputs"
awk -F'|' -v models="$model_list" -v small="$issue32_models" -v quant="$quant_models" \
  -v tiers="$tiers" '
  function key(model, threads) { return model " at " threads " thread" (threads == 1 ? "" : "s") }
  function ms(value) {
    return sprintf(value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value)
  }
  function row(what, onyx, ort, target) {
    if (onyx == "" || ort == "") {
      printf "SUMMARY|%s: onyx %s, onnxruntime %s|-|<= %s|MISSED\n", what,
        (onyx == "" ? "failed" : ms(onyx) " ms"), (ort == "" ? "failed" : ms(ort) " ms"), target
      return
    }
    printf "SUMMARY|%s: onyx %s ms, onnxruntime %s ms|%.2f|<= %s|%s\n", what, ms(onyx), ms(ort),
      onyx / ort, target, (onyx / ort <= target ? "holds" : "MISSED")
  }
  /^RESULT\|/ { warm[$2, key($3, $4)] = $5 }
  # The median of the first runs (every process gives one).
  function median(values, n,    i, j, swap) {
    for (i = 2; i <= n; ++i) {
      for (j = i; j > 1 && values[j - 1] > values[j]; --j) {
        swap = values[j]; values[j] = values[j - 1]; values[j - 1] = swap
      }
    }
    return n % 2 ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
  }
  /^FIRST\|/ { firsts[$2, key($3, $4)] = firsts[$2, key($3, $4)] " " $5 }
  /^OUTPUTS\|/ { difference[key($2, $3)] = $4; largest[key($2, $3)] = $5 }
  /^THREADS\|/ { same[$2] = $3 }
  /^TIER\|/ { tier_same[$2, $3, $4] = $5 }
  END {
    tier_count = split(tiers, tier_list, " ")
    for (k in firsts) {
      n = split(firsts[k], values, " ")
      first[k] = median(values, n)
    }
    count = split(models, list, " ")
    split(small, small_list, " ")
    for (s in small_list) is_small[small_list[s]] = 1
    split(quant, quant_list, " ")
    for (q in quant_list) is_quant[quant_list[q]] = 1
    for (m = 1; m <= count; ++m) {
      for (t = 1; t <= 2; ++t) {
        k = key(list[m], t)
        row(k, warm["onyx", k], warm["onnxruntime", k],
            list[m] in is_small || list[m] in is_quant ? "1.2" : "1.5")
        row(k ", first run", first["onyx", k], first["onnxruntime", k],
            list[m] in is_small ? "1.2" : "1.0")
        for (n = 1; n <= tier_count; ++n) {
          if (tier_list[n] == "native") continue
          row(k " at " tier_list[n] " (onnxruntime native)", warm["onyx@" tier_list[n], k],
              warm["onnxruntime", k], list[m] in is_small || list[m] in is_quant ? "1.2" : "1.5")
          if ((list[m], t, tier_list[n]) in tier_same) {
            printf "OUTPUTS|%s: onyx at %s and native: %s\n", k, tier_list[n],
              tier_same[list[m], t, tier_list[n]]
          }
        }
        if (k in difference) {
          relative = (largest[k] > 0 ? difference[k] / largest[k] : difference[k])
          printf "OUTPUTS|%s: largest |onyx - onnxruntime| / largest |onnxruntime| = %s / %s" \
            " = %.1e|%s\n", k, difference[k], largest[k], relative,
            (difference[k] ~ /NaN/ || relative > 1e-3 ? "DIFFERS" : "ok")
        } else {
          printf "OUTPUTS|%s: not compared|-\n", k
        }
      }
      printf "OUTPUTS|%s: onyx at 1 and 2 threads: %s\n", list[m], same[list[m]]
    }
  }' "$out" | tee "$results/eval-summary.txt"
