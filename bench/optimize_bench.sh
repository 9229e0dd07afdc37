#!/usr/bin/env bash
# The optimiser benchmark: `onyx optimize IN OUT` against onnxruntime-node 1.30's 'basic'
# graph optimisation (written out with optimizedModelFilePath) on the models of
# bench/make_optimize_models.py, which look exported, side by side in one run. Per model:
#   - nodes before, after onnxruntime, after onyx (nested graphs included), and the Shape ops
#     left on each side (bench/optimize_bench.py count);
#   - whole-process wall time and peak RSS (/usr/bin/time) of each optimisation;
#   - the outputs of each optimised model against the original's, both run by onnxruntime as
#     written, on the same inputs: the largest relative difference (target 1e-5 for onyx);
#   - for the peak RSS target, the graph's bytes and the bytes onyx folded into new tensors
#     (bench/optimize_bench.py memory).
# Then a verdict per target: node counts and Shape ops at most onnxruntime's on every model,
# outputs within 1e-5, opt_swin.onnx (12,830 nodes) under 1 s, opt_big_weights.onnx (1.2 GB in
# external data) under 1.5 s with peak RSS at most graph + folded bytes + 64 MiB.
# Where the onyx binary has no `optimize` command, its columns say n/a and the onnxruntime
# side is still measured.
#
#   bench/optimize_bench.sh [MODELS_FOLDER]      (default build/bench-models)
#     MODELS="a.onnx ..."  only these models
#     BIG=1                also the 1.2 GB model (written once, 1.2 GB of disk beside the
#                          others, and up to 2.4 GB more for the two optimised models)
# The optimised models are written beside the originals (NAME.ort.onnx, NAME.onyx.onnx), the
# logs and the summary into build/bench/results/optimize.
#     ONYX=path            the onyx binary to measure (default: built here in build/bench)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/bench
models=${1:-build/bench-models}
node_dir=build/bench-node
model_list=${MODELS:-opt_resnet50_bn.onnx opt_encoder_dynamic.onnx opt_decoder_kv.onnx \
opt_detection_head.onnx opt_swin.onnx opt_recurrent_vad.onnx}
big=()
if [ "${BIG:-0}" = 1 ]; then
  big=(--big)
  [ -n "${MODELS:-}" ] || model_list="$model_list opt_big_weights.onnx"
fi
if [ -z "${ONYX:-}" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF \
    >/dev/null
  cmake --build "$build" --target onyx_tool -j "$(nproc)" >/dev/null
fi
onyx=${ONYX:-$build/tools/onyx/onyx}
if [ ! -e "$node_dir/node_modules/onnxruntime-node/package.json" ]; then
  mkdir -p "$node_dir"
  cp bench/package.json "$node_dir/"
  (cd "$node_dir" && npm install --ignore-scripts --no-audit --no-fund >/dev/null)
fi
export NODE_PATH=$node_dir/node_modules
/usr/bin/python3 bench/make_optimize_models.py "$models" "${big[@]}"
results=$build/results/optimize
mkdir -p "$results"
out=$results/optimize.txt
: >"$out"
has_optimize=0
# The command list of `onyx --help` (`onyx optimize --help` exits 0 either way).
"$onyx" --help | grep -qE '^ +optimize ' && has_optimize=1
echo "onyx: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), optimize command:" \
  "$([ $has_optimize = 1 ] && echo yes || echo 'no (onyx columns n/a)')" | tee -a "$out"

field() {  # field N LINE: the Nth |-separated field of LINE, n/a when there is none
  local value
  value=$(cut -d'|' -f"$1" <<<"$2")
  echo "${value:-n/a}"
}

# A step that fails is reported and leaves its columns n/a; the other steps and models go on.
for model in $model_list; do
  in=$models/$model
  base=${model%.onnx}
  # Beside the input: a result may keep pointing at the input's external data file (its
  # location is relative to the model's folder), as a pass that leaves weights alone should.
  ort_out=$models/$base.ort.onnx
  onyx_out=$models/$base.onyx.onnx
  rm -f "$ort_out" "$ort_out.data" "$onyx_out" "$onyx_out.data"
  before=$(/usr/bin/python3 bench/optimize_bench.py count "$in")

  ort_nodes=n/a ort_shapes=n/a ort_time=n/a ort_rss=n/a ort_create=n/a ort_rel=n/a
  if ort_line=$(/usr/bin/time -f "%e %M" -o "$results/$base.ort.time" \
      node bench/optimize_bench_ort.js optimize "$in" "$ort_out"); then
    read -r ort_time ort_rss <"$results/$base.ort.time"
    ort_create=$(field 3 "$ort_line")
    counted=$(/usr/bin/python3 bench/optimize_bench.py count "$ort_out")
    ort_nodes=$(field 2 "$counted") ort_shapes=$(field 3 "$counted")
    ort_rel=$(field 4 "$(node bench/optimize_bench_ort.js compare "$in" "$ort_out" \
      onnxruntime || true)")
  else
    echo "onnxruntime failed to optimise $model" | tee -a "$out"
  fi

  onyx_nodes=n/a onyx_shapes=n/a onyx_time=n/a onyx_rss=n/a onyx_rel=n/a graph=n/a folded=n/a
  onyx_check=n/a
  if [ $has_optimize = 1 ]; then
    if /usr/bin/time -f "%e %M" -o "$results/$base.onyx.time" \
        "$onyx" optimize "$in" "$onyx_out" >"$results/$base.onyx.log" 2>&1; then
      read -r onyx_time onyx_rss <"$results/$base.onyx.time"
      counted=$(/usr/bin/python3 bench/optimize_bench.py count "$onyx_out")
      onyx_nodes=$(field 2 "$counted") onyx_shapes=$(field 3 "$counted")
      onyx_rel=$(field 4 "$(node bench/optimize_bench_ort.js compare "$in" "$onyx_out" onyx ||
        true)")
      memory=$(/usr/bin/python3 bench/optimize_bench.py memory "$in" "$onyx_out")
      graph=$(field 2 "$memory") folded=$(field 3 "$memory")
      onyx_check=$("$onyx" check "$onyx_out" >/dev/null 2>&1 && echo passes || echo FAILS)
    else
      echo "onyx optimize failed on $model: $(tail -n 3 "$results/$base.onyx.log")" |
        tee -a "$out"
    fi
  fi
  detail=(DETAIL "$model" "shape_before=$(field 3 "$before")" "rss_ort=$ort_rss KiB"
          "ort_session=$ort_create ms" "maxrel_ort=$ort_rel" "graph=$graph B" "folded=$folded B"
          "onyx_check=$onyx_check")
  summary=(SUMMARY "$model" "$(field 2 "$before")" "$ort_nodes" "$onyx_nodes" "$ort_shapes"
           "$onyx_shapes" "$ort_time" "$onyx_time" "$onyx_rss" "$onyx_rel")
  (IFS='|'; echo "${detail[*]}"; echo "${summary[*]}") | tee -a "$out"
done

echo "== targets: onyx's node count and Shape ops <= onnxruntime basic's, outputs within 1e-5," \
  "12,830 nodes < 1 s, 1.2 GB < 1.5 s with peak RSS <= graph + folded + 64 MiB"
awk -F'|' -v has_optimize=$has_optimize '
  function verdict(what, ok, measured) {
    if (measured == "") measured = "n/a"
    status = (measured ~ /n\/a/ ? "n/a" : ok ? "holds" : "MISSED")
    if (status == "holds") ++held; else if (status == "MISSED") ++missed; else ++unknown
    printf "VERDICT|%s|%s|%s\n", what, measured, status
  }
  /^DETAIL\|/ {
    for (i = 3; i <= NF; ++i) { split($i, kv, "="); detail[$2, kv[1]] = kv[2] }
  }
  /^SUMMARY\|/ {
    model = $2
    nodes_ort = $4; nodes_onyx = $5; shape_ort = $6; shape_onyx = $7
    time_onyx = $9; rss_onyx = $10; maxrel = $11
    verdict(model ": nodes onyx <= onnxruntime", nodes_onyx + 0 <= nodes_ort + 0,
            (nodes_onyx == "n/a" || nodes_ort == "n/a") ? "n/a" : nodes_onyx " vs " nodes_ort)
    verdict(model ": Shape ops onyx <= onnxruntime", shape_onyx + 0 <= shape_ort + 0,
            (shape_onyx == "n/a" || shape_ort == "n/a") ? "n/a" : shape_onyx " vs " shape_ort)
    verdict(model ": outputs within 1e-5 relative", maxrel !~ /[Ii]nf|NaN/ && maxrel + 0 <= 1e-5,
            maxrel)
    verdict(model ": the result passes onyx check", detail[model, "onyx_check"] == "passes",
            detail[model, "onyx_check"])
    if (model == "opt_swin.onnx")
      verdict(model ": onyx optimize < 1 s", time_onyx + 0 < 1,
              time_onyx == "n/a" ? "n/a" : time_onyx " s")
    if (model == "opt_big_weights.onnx") {
      verdict(model ": onyx optimize < 1.5 s", time_onyx + 0 < 1.5,
              time_onyx == "n/a" ? "n/a" : time_onyx " s")
      graph = detail[model, "graph"]; folded = detail[model, "folded"]
      sub(/ B$/, "", graph); sub(/ B$/, "", folded)
      limit = (graph + folded) / 1024 + 65536
      verdict(model ": peak RSS <= graph + folded + 64 MiB", rss_onyx + 0 <= limit,
              rss_onyx == "n/a" ? "n/a" : sprintf("%d KiB vs %d KiB", rss_onyx, limit))
    }
  }
  END {
    if (!has_optimize) printf "VERDICT|all|onyx optimize not built: %d targets n/a\n", unknown
    else if (missed || unknown)
      printf "VERDICT|all|MISSED (%d missed, %d n/a, %d hold)\n", missed, unknown, held
    else printf "VERDICT|all|holds (%d targets)\n", held
  }' "$out" | tee "$results/optimize-summary.txt"
