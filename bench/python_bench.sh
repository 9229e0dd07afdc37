#!/usr/bin/env bash
# The Python benchmark (issue 22): the onyx package against Debian's python3-onnx 1.12 on the
# same models, in one run, each measurement in a fresh /usr/bin/python3 process:
#   1. onyx.load of weights1200m.onnx (1.2 GB of weights inline): wall time (target < 100 ms)
#      and RSS growth (target: under the graph + 50 MiB, where the graph is the file's bytes
#      that are not tensor data; the verdict takes the peak within the load); onnx.load beside;
#   2. onyx.check and onyx.infer on the loaded model: RSS before and after, and the peak
#      growth, which must stay under one tensor's 4 MB (no tensor bytes copied);
#      onnx.checker.check_model and onnx.shape_inference.infer_shapes beside;
#   3. load graph200k.onnx and walk it, reading every node's op type and input names, against
#      onnx.load + the same walk over the ModelProto: load, walk and both, medians of WALKS
#      processes per side taken in turn (target: onyx at least 5x faster in all); then what
#      each part of the walk costs per node (passes adding one part each);
#   4. Session.run per call on a one-node Relu model against onyx::Evaluator::run on the same
#      model and input in C++ (bench/session_overhead.cc), input Arrays made on each call on
#      both sides (target: Python - C++ < 20 us).
# Then one table of every figure with its anchor, ratio or difference, target and verdict.
# The figures mean something on a quiet host only: the load average is printed at the start
# and the end; both cores busy with a build doubles the times.
#
#   bench/python_bench.sh [MODELS_FOLDER]     (default build/bench-models)
#     WEIGHT_RUNS=n   processes per side for 1 and 2 (default 3)
#     WALKS=n         processes per side for 3 (default 7)
#     CALLS=n         Session.run calls per batch (default 20000; 7 batches)
#     ONYX=DIR        a build folder holding python/onyx and bench/onyx_bench_session (default:
#                     configured and built here, in build/bench with -DONYX_PYTHON=ON)
# Logs and the table go to build/bench/results/python.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ONYX:-build/bench}
models=${1:-build/bench-models}
weight_runs=${WEIGHT_RUNS:-3}
walks=${WALKS:-7}
calls=${CALLS:-20000}
python=/usr/bin/python3
if [ -z "${ONYX:-}" ]; then
  echo "building the onyx module and the benchmark's tools in $build ..." >&2
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF \
    -DONYX_PYTHON=ON -DPython3_EXECUTABLE=$python >/dev/null
  cmake --build "$build" --target onyx_python onyx_bench_session onyx_make_bench_models \
    -j "$(nproc)" >/dev/null
fi
export PYTHONPATH=$build/python
bench=$build/bench
results=$build/results/python
mkdir -p "$results" "$models"
weights=$models/weights1200m.onnx
graph=$models/graph200k.onnx
if [ ! -e "$weights" ] || [ ! -e "$graph" ]; then
  echo "writing the models into $models (about 15 s, 2.4 GB) ..." >&2
  "$bench/onyx_make_bench_models" "$models" >&2
fi
out=$results/python.txt
: >"$out"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ), onyx $(git rev-parse --short HEAD 2>/dev/null || echo '?')," \
    "onnx $($python -c 'import onnx; print(onnx.__version__)'), $(nproc) cores," \
    "$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee -a "$out"

# Both sides read the model from the page cache, not the disk.
cat "$weights" "$graph" >/dev/null
$python bench/python_bench.py graph-bytes "$weights" | tee -a "$out"

echo "1-2. the 1.2 GB model: load, check, infer; $weight_runs processes per side ..." >&2
for ((run = 1; run <= weight_runs; ++run)); do
  for side in onyx onnx; do
    echo "  $side, run $run" >&2
    $python bench/python_bench.py weights "$weights" $side >>"$out" ||
      echo "FAILED|$side|weights run $run" | tee -a "$out"
  done
done

echo "3. the 200,000-node graph: load and walk; $walks processes per side ..." >&2
for ((run = 1; run <= walks; ++run)); do
  for side in onyx onnx; do
    $python bench/python_bench.py walk "$graph" $side >>"$out" ||
      echo "FAILED|$side|walk run $run" | tee -a "$out"
  done
done

for side in onyx onnx; do
  $python bench/python_bench.py walk-parts "$graph" $side >>"$out" ||
    echo "FAILED|$side|walk-parts" | tee -a "$out"
done

echo "4. Session.run against Evaluator::run, $calls calls x 7 batches each ..." >&2
session_model=$models/python_session_relu.onnx
$python bench/python_bench.py session-model "$session_model"
$python bench/python_bench.py session "$session_model" --calls="$calls" | tee -a "$out" ||
  echo "FAILED|python|session" | tee -a "$out"
"$bench/onyx_bench_session" "$session_model" --calls="$calls" | tee -a "$out" ||
  echo "FAILED|cpp|session" | tee -a "$out"

echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
echo
$python bench/python_bench.py table "$out" | tee "$results/python-table.txt"
