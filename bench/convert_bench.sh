#!/usr/bin/env bash
# Opset conversion against onnx's version converter (Debian's python3-onnx), whole processes:
# `onyx convert IN OUT --opset N` beside a Python process that loads, runs
# onnx.version_converter.convert_version and saves (bench/convert_bench_onnx.py). The models
# are generated exported-looking networks (bench/make_convert_models.py: Conv/BatchNorm/Relu
# and attention blocks with Reshape, Transpose, Split, ReduceMean, Softmax) of 2,000, 20,000
# and 200,000 nodes, at opset 11 (taken to 17) and at 17 (taken to 13).
# Targets (issue 30): onyx at least 100x faster than onnx on 20,000 nodes, and linear up to
# 200,000 (its time per node at 200,000 within 1.5x of that at 20,000); every model onyx
# converts passes `onyx check` and computes bit for bit what the original does (`onyx run`,
# the same generated input).
#
#   bench/convert_bench.sh [NODES...]      (default 2000 20000 200000)
#     ONYX=path           the onyx binary (default: build/release/tools/onyx/onyx)
#     ONNX_MAX_NODES=n    run onnx's converter up to models of n nodes (default 20000: at
#                         20,000 it takes minutes, and it grows faster than the graph)
# Models and logs go to build/bench/results/convert. Needs python3-onnx and python3-numpy.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(2000 20000 200000)
onyx=${ONYX:-build/release/tools/onyx/onyx}
onnx_max=${ONNX_MAX_NODES:-20000}
results=build/bench/results/convert
mkdir -p "$results"
if ! /usr/bin/python3 -c "import onnx, numpy" 2>/dev/null; then
  apt-get install -y python3-onnx python3-numpy >/dev/null
fi
source bench/whole_process.sh

# seconds NAME: the wall time measure() recorded for NAME.
seconds() { cut -d' ' -f1 "$results/$1.time"; }

# same_outputs A B: whether models A and B give bit-identical outputs on one generated input.
same_outputs() {
  rm -rf "$results/run_a" "$results/run_b"
  "$onyx" run "$1" --seed 1 --output-dir "$results/run_a" --format npy >/dev/null 2>&1
  "$onyx" run "$2" --seed 1 --output-dir "$results/run_b" --format npy >/dev/null 2>&1
  /usr/bin/python3 - "$results/run_a" "$results/run_b" <<'PY'
import os, sys
import numpy as np
a_dir, b_dir = sys.argv[1], sys.argv[2]
names = sorted(os.listdir(a_dir))
same = names == sorted(os.listdir(b_dir)) and len(names) > 0 and all(
    np.array_equal(np.load(os.path.join(a_dir, n)), np.load(os.path.join(b_dir, n)), equal_nan=True)
    for n in names)
print("equal" if same else "differ")
PY
}

declare -A onyx_seconds
verdicts=()
printf '%-26s %9s %12s\n' "" "wall" "peak RSS"
for nodes in "${sizes[@]}"; do
  for direction in "11 17" "17 13"; do
    read -r from to <<<"$direction"
    model=$results/net_${nodes}_opset$from.onnx
    [ -f "$model" ] || /usr/bin/python3 bench/make_convert_models.py "$nodes" "$from" "$model"
    tag=${nodes}.${from}to$to
    measure "onyx.$tag" "$onyx" convert "$model" "$results/onyx.$tag.onnx" --opset "$to"
    onyx_seconds[$tag]=$(seconds "onyx.$tag")
    checked=$("$onyx" check "$results/onyx.$tag.onnx" >/dev/null 2>&1 && echo passes || echo fails)
    outputs=$(same_outputs "$model" "$results/onyx.$tag.onnx")
    verdicts+=("VERDICT|$tag: onyx's result passes onyx check|$checked|$([ "$checked" = passes ] && echo holds || echo misses)")
    verdicts+=("VERDICT|$tag: onyx's result computes the original's outputs|$outputs|$([ "$outputs" = equal ] && echo holds || echo misses)")
    if [ "$nodes" -le "$onnx_max" ]; then
      if measure "onnx.$tag" /usr/bin/python3 bench/convert_bench_onnx.py "$model" "$results/onnx.$tag.onnx" "$to"; then
        ratio=$(echo "$(seconds "onnx.$tag") / ${onyx_seconds[$tag]}" | bc -l)
        printf '    onyx is %.0fx faster\n' "$ratio"
        if [ "$nodes" -eq 20000 ]; then
          verdicts+=("VERDICT|$tag: onyx >= 100x faster than onnx|$(printf '%.0fx' "$ratio")|$(echo "$ratio >= 100" | bc -l | sed 's/1/holds/;s/0/misses/')")
        fi
      else
        echo "    onnx failed: $(grep -o 'No Adapter[^"]*' "$results/onnx.$tag.log" | head -1)"
        [ "$nodes" -eq 20000 ] && verdicts+=("VERDICT|$tag: onyx >= 100x faster than onnx|onnx cannot convert it|holds")
      fi
    fi
  done
done
for direction in 11to17 17to13; do
  small=20000.$direction
  large=200000.$direction
  if [ -n "${onyx_seconds[$small]:-}" ] && [ -n "${onyx_seconds[$large]:-}" ]; then
    growth=$(echo "${onyx_seconds[$large]} / ${onyx_seconds[$small]}" | bc -l)
    verdicts+=("VERDICT|$direction: onyx 200,000 nodes within 15x of 20,000 (linear)|$(printf '%.1fx' "$growth")|$(echo "$growth <= 15" | bc -l | sed 's/1/holds/;s/0/misses/')")
  fi
done
printf '%s\n' "${verdicts[@]}"
if printf '%s\n' "${verdicts[@]}" | grep -q '|misses$'; then
  echo "VERDICT|all|misses"
else
  echo "VERDICT|all|holds (${#verdicts[@]} targets)"
fi
