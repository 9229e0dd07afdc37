#!/usr/bin/env bash
# The optimiser on one large generated graph: a chain of blocks that every default pass has
# work in (Identity, Add and its duplicate, Mul, a Constant + Reshape to the same shape, Relu,
# Neg, an identity Transpose), 9 nodes a block. Measures whole processes with /usr/bin/time
# (wall time and peak RSS): `onyx optimize` (load, passes to the fixed point, write), and
# `onyx infer` and `onyx convert` of the same model beside it, for where the time goes.
# Target (issue 29): 216,001 nodes optimised in under 2 s whole process.
#
#   bench/optimize_chain_bench.sh [BLOCKS]      (default 24000: 216,001 nodes)
#     ONYX=path        the onyx binary to measure (default: build/release/tools/onyx/onyx)
#     BEFORE=path      a second onyx binary, measured the same way in the same run
# The model and the logs go to build/bench/results/optimize_chain.
set -euo pipefail
cd "$(dirname "$0")/.."
blocks=${1:-24000}
onyx=${ONYX:-build/release/tools/onyx/onyx}
results=build/bench/results/optimize_chain
mkdir -p "$results"
text=$results/chain_$blocks.onnxtxt
model=$results/chain_$blocks.onnx
if [ ! -f "$model" ]; then
  /usr/bin/python3 - "$blocks" >"$text" <<'PY'
import sys
blocks = int(sys.argv[1])
out = sys.stdout
out.write('<ir_version: 8, opset_import: ["" : 17]>\n')
out.write("chain (float[N,16] x) => (float[N,16] y) {\n")
previous = "x"
for b in range(blocks):
    p = f"b{b}_"
    out.write(f"  {p}i = Identity ({previous})\n")
    out.write(f"  {p}a = Add ({p}i, {p}i)\n")
    out.write(f"  {p}d = Add ({p}i, {p}i)\n")
    out.write(f"  {p}m = Mul ({p}a, {p}d)\n")
    out.write(f"  {p}s = Constant <value = int64[2] {{-1, 16}}> ()\n")
    out.write(f"  {p}r = Reshape ({p}m, {p}s)\n")
    out.write(f"  {p}u = Relu ({p}r)\n")
    out.write(f"  {p}n = Neg ({p}u)\n")
    out.write(f"  {p}t = Transpose <perm = [0, 1]> ({p}n)\n")
    previous = f"{p}t"
out.write(f"  y = Identity ({previous})\n")
out.write("}\n")
PY
  "$onyx" convert "$text" "$model"
  rm -f "$text"
fi

source bench/whole_process.sh

echo "model: $model ($(("$blocks" * 9 + 1)) nodes)"
for side in onyx ${BEFORE:+before}; do
  binary=$onyx
  [ "$side" = before ] && binary=$BEFORE
  measure "$side.convert" "$binary" convert "$model" "$results/$side.copy.onnx"
  measure "$side.infer" "$binary" infer "$model" "$results/$side.inferred.onnx"
  measure "$side.optimize" "$binary" optimize --profile "$model" "$results/$side.optimized.onnx"
  grep -E '^(  )?[a-z-]+ ' "$results/$side.optimize.log" | head -20 | sed 's/^/    /' || true
  echo "    nodes after: $(node_count "$binary" "$results/$side.optimized.onnx")"
done
