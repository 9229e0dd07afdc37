#!/usr/bin/env bash
# The drawing benchmark (issue 34): `onyx draw` as whole processes on exporter-shaped models of
# 10,000 and 100,000 nodes (bench/make_draw_models.py), to SVG and HTML at the default depth
# (as many levels of groups as show at most 400 boxes), to SVG with every group expanded
# (--depth 99: every node laid out and drawn), and to DOT; the same models without node names
# too (drawflat*: no scopes, so onyx draws them in blocks). Targets: under 1 s at 10,000
# nodes, under 10 s at 100,000, for SVG and HTML.
#
#   bench/draw_bench.sh [MODELS_FOLDER]        (REPS=n: runs of each, default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/bench
models=${1:-build/bench-models}
reps=${REPS:-5}
out=$build/results/draw
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF >/dev/null
cmake --build "$build" --target onyx_tool -j "$(nproc)" >/dev/null
/usr/bin/python3 bench/make_draw_models.py "$models"
mkdir -p "$out"
onyx=$build/tools/onyx/onyx
echo "onyx: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
commands=()
for model in draw10k draw100k drawflat10k drawflat100k; do
  commands+=("${model}_svg=$onyx draw $models/$model.onnx -o $out/$model.svg"
             "${model}_html=$onyx draw $models/$model.onnx -o $out/$model.html"
             "${model}_svg_all=$onyx draw $models/$model.onnx -o $out/${model}_all.svg --depth 99"
             "${model}_dot=$onyx draw $models/$model.onnx -o $out/$model.dot")
done
/usr/bin/python3 bench/process_bench.py --reps="$reps" "${commands[@]}" | tee "$out/times.txt"
for model in draw10k draw100k drawflat10k drawflat100k; do
  target=$([[ "$model" == *10k ]] && echo 1000 || echo 10000)
  for format in svg html svg_all; do
    wall=$(sed -n "s/^RESULT|${model}_${format}|\([0-9.]*\)|.*/\1/p" "$out/times.txt")
    verdict=$(awk -v w="$wall" -v t="$target" 'BEGIN { print (w < t) ? "holds" : "MISSED" }')
    echo "SUMMARY|$model $format: ${wall} ms|< $target ms|$verdict"
  done
done
ls -l "$out" | awk 'NR > 1 { print "SIZE|" $9 "|" $5 " bytes" }'
