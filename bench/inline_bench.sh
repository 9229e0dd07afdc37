#!/usr/bin/env bash
# The inliner's memory: a generated model of 200,000 nodes, 20,000 of them calls of model-local
# functions (10 nodes each), inlined by `onyx optimize --passes inline` as one whole process,
# beside the model read and written (`onyx convert`) and the inlined model read and written
# (the model plus the inlined bodies). Peak RSS and wall time by /usr/bin/time.
# Target (issue 29): inlining peaks at no more than the inlined model's own process plus
# 64 MiB: the inliner copies no model, only the bodies it inlines (and its journal).
#
#   bench/inline_bench.sh [BLOCKS]      (default 20000: 200,000 nodes, 20,000 calls)
#     ONYX=path        the onyx binary to measure (default: build/release/tools/onyx/onyx)
#     BEFORE=path      a second onyx binary, measured the same way in the same run
# The models and the logs go to build/bench/results/inline.
set -euo pipefail
cd "$(dirname "$0")/.."
blocks=${1:-20000}
onyx=${ONYX:-build/release/tools/onyx/onyx}
results=build/bench/results/inline
mkdir -p "$results"
model=$results/calls_$blocks.onnx
if [ ! -f "$model" ]; then
  text=$results/calls_$blocks.onnxtxt
  /usr/bin/python3 - "$blocks" >"$text" <<'PY'
import sys
blocks = int(sys.argv[1])
out = sys.stdout
out.write('<ir_version: 10, opset_import: ["" : 18, "local" : 1]>\n')
out.write("calls (float[N,16] x) => (float[N,16] y) {\n")
previous = "x"
plain = ["Relu", "Neg", "Abs", "Sigmoid", "Tanh", "Exp", "Neg", "Abs", "Relu"]
for b in range(blocks):
    for k, op in enumerate(plain):
        out.write(f"  b{b}_{k} = {op} ({previous})\n")
        previous = f"b{b}_{k}"
    out.write(f"  b{b}_call = local.block <alpha = 0.5> ({previous})\n")
    previous = f"b{b}_call"
out.write(f"  y = Identity ({previous})\n")
out.write("}\n")
out.write('<domain: "local", opset_import: ["" : 18]>\n')
out.write("block <alpha> (a) => (b) {\n")
body = ["Relu", "Neg", "Abs", "Sigmoid", "Tanh", "Neg", "Abs", "Relu", "Sigmoid"]
previous = "a"
for k, op in enumerate(body):
    out.write(f"  t{k} = {op} ({previous})\n")
    previous = f"t{k}"
out.write(f"  b = LeakyRelu <alpha: float = @alpha> ({previous})\n")
out.write("}\n")
PY
  "$onyx" convert "$text" "$model"
  rm -f "$text"
fi

source bench/whole_process.sh

echo "model: $model ($((blocks * 10 + 1)) nodes, $blocks calls of a 10-node function)"
for side in onyx ${BEFORE:+before}; do
  binary=$onyx
  [ "$side" = before ] && binary=$BEFORE
  measure "$side.convert" "$binary" convert "$model" "$results/$side.copy.onnx"
  measure "$side.inline" "$binary" optimize --passes inline "$model" "$results/$side.inlined.onnx"
  inline_peak=$peak_mib
  measure "$side.convert-inlined" "$binary" convert "$results/$side.inlined.onnx" \
    "$results/$side.inlined.copy.onnx"
  inlined_peak=$peak_mib
  echo "    nodes after inlining: $(node_count "$binary" "$results/$side.inlined.onnx")"
  printf '    inlining peak - inlined model peak: %.1f MiB (target <= 64): %s\n' \
    "$(echo "$inline_peak - $inlined_peak" | bc -l)" \
    "$(echo "$inline_peak - $inlined_peak <= 64" | bc -l | sed 's/1/holds/; s/0/misses/')"
done
