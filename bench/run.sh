#!/usr/bin/env bash
# Builds the load/save benchmark (Release, -DONYX_BENCH=ON, in build/bench), generates its
# models in build/bench-models when they are missing, runs everything and prints a summary
# of the ratios against the targets of bench/README.md. About 5 minutes on 2 cores.
#
#   bench/run.sh [MODELS_FOLDER]
#
# Environment: REPS (Google Benchmark repetitions, default 5), SAVE_ROUNDS (default 8).
# Logs go to build/bench/results/. The models (2.4 GB) stay for the next run; delete the
# folder to get rid of them. The files the save benchmark writes are deleted as it goes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/build/bench
models=${1:-$root/build/bench-models}
reps=${REPS:-5}
save_rounds=${SAVE_ROUNDS:-8}
results=$build/results

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DONYX_BENCH=ON -DONYX_TESTS=OFF >/dev/null
cmake --build "$build" --target onyx_bench_load onyx_bench_text onyx_make_bench_models -j "$(nproc)"
bench=$build/bench/onyx_bench_load
mkdir -p "$results"

{
  echo "date:     $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "machine:  $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1)," \
    "$(free -g | awk '/^Mem:/ {print $2}') GiB RAM, $(uname -r)"
  echo "disk:     $(df -h "$models" 2>/dev/null | awk 'NR == 2 {print $1 " (" $2 ")"}' || true)"
  echo "onyx:     $(git rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "$(git status --porcelain -- src include 2>/dev/null | grep -q . && echo '(with uncommitted changes in src/ or include/)' || true)"
  echo "compiler: $(c++ --version | head -1), -O3"
  echo "libs:     libprotobuf $(pkg-config --modversion protobuf 2>/dev/null || echo '?'), onnx 1.12 (libonnx-dev)"
} | tee "$results/machine.txt"

echo "== models"
"$build/bench/onyx_make_bench_models" "$models"

echo "== load (Google Benchmark, $reps repetitions)"
"$bench" --models="$models" --reps="$reps" --benchmark_out="$results/load.json" \
  --benchmark_out_format=json --benchmark_color=false | tee "$results/load.txt"

echo "== peak RSS and first load, each in a fresh process"
{
  "$bench" --rss-all "$models/graph200k.onnx" onyx protobuf protobuf-stream
  "$bench" --rss-all "$models/weights1200m.onnx" onyx protobuf protobuf-stream protobuf-import
  "$bench" --rss-all "$models/weights1200m_ext.onnx" onyx protobuf protobuf-readext
} | tee "$results/rss.txt"

echo "== save (1.2 GB, with fsync), $save_rounds rounds after a warm-up round"
"$bench" --save "$models/weights1200m.onnx" "$models" "$save_rounds" | tee "$results/save.txt"

echo "== text syntax: print and parse graph200k"
"$build/bench/onyx_bench_text" "$models/graph200k.onnx" --reps="$reps" | tee "$results/text.txt"

echo
echo "== summary (ratios measured in this run; logs in $results)"
cat "$results/machine.txt"
echo
cat "$results/load.txt" "$results/rss.txt" "$results/save.txt" "$results/text.txt" | grep '^SUMMARY|' | cut -d'|' -f2- |
  awk -F'|' '{
    printf "%-8s %s\n         %s\n         ratio %s, target %s\n", $5, $1, $2, $3, $4
  }' | tee "$results/summary.txt"
