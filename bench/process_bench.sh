#!/usr/bin/env bash
# What users time is the whole command. Whole processes, side by side in one run, on the
# 200,000-node graph of the checker benchmark (bench/make_check_models.py):
#   onyx check MODEL       against python3-onnx's check_model(onnx.load(MODEL), full_check=True)
#                          in a python3 process of its own (target: at least 10x faster)
#   onyx info MODEL        against a process that only parses MODEL with libprotobuf
#                          (bench/protobuf_parse.cc; target: no slower)
#
#   bench/process_bench.sh [MODELS_FOLDER]        (REPS=n: runs of each, default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/bench
models=${1:-build/bench-models}
reps=${REPS:-7}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF >/dev/null
cmake --build "$build" --target onyx_tool onyx_bench_protobuf_parse -j "$(nproc)" >/dev/null
/usr/bin/python3 bench/make_check_models.py "$models" >/dev/null
model=$models/check200k.onnx
onyx=$build/tools/onyx/onyx
results=$build/results
mkdir -p "$results"
echo "onyx: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), model: $model"
# onnx 1.12's check_model(path, full_check=True) writes the inferred model back over the
# file, so the python3 process loads the model and checks the object, as a script does.
python_check="import onnx, sys; onnx.checker.check_model(onnx.load(sys.argv[1]), full_check=True)"
/usr/bin/python3 bench/process_bench.py --reps="$reps" \
  "onyx_check=$onyx check $model" \
  "onnx_check_model=/usr/bin/python3 -c '$python_check' $model" \
  "onyx_info=$onyx info $model" \
  "protobuf_parse=$build/bench/onyx_bench_protobuf_parse $model" | tee "$results/process.txt"
awk -F'|' '/^RESULT\|/ { wall[$2] = $3 }
  END {
    check = wall["onnx_check_model"] / wall["onyx_check"]
    info = wall["protobuf_parse"] / wall["onyx_info"]
    printf "SUMMARY|onyx check %.0f ms vs python3-onnx check_model %.0f ms|%.1fx|>= 10x|%s\n",
      wall["onyx_check"], wall["onnx_check_model"], check, (check >= 10 ? "holds" : "MISSED")
    printf "SUMMARY|onyx info %.0f ms vs libprotobuf parse %.0f ms|%.2fx|>= 1x|%s\n",
      wall["onyx_info"], wall["protobuf_parse"], info, (info >= 1 ? "holds" : "MISSED")
  }' "$results/process.txt" | tee "$results/process-summary.txt"
