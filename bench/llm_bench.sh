#!/usr/bin/env bash
# The decoder benchmark (issue 46): onyx against onnxruntime-node 1.30 (CPU) on the
# Llama-shaped decoders of bench/make_llm_models.py, in three forms made from the same weights:
#   std  standard opset 23: Attention, RotaryEmbedding, RMSNormalization, int4 block-wise
#        DequantizeLinear -> MatMul, the cache as past/present;
#   scatter  the same at opset 24 with a cache of fixed capacity written in place
#        (TensorScatter; onyx binds each present to its past: no cache bytes copied a step),
#        onyx alone; std_int8: onyx on std with --int8-activations (its products' inputs
#        rounded to int8 per block, as onnxruntime does on std by default);
#   f32  float32, decomposed as optimum exports at opset 17;
#   ort  onnxruntime's contrib form (MatMulNBits, GroupQueryAttention, ...), for comparison
#        only (onnxruntime alone runs it); ort_acc4 the same with MatMulNBits' accuracy_level 4
#        (int8 products), as onnxruntime's model builder writes it for CPUs.
# Per thread count (1 and 2) and form it prints, as the median of ROUNDS rounds in which the
# runtimes take turns:
#   - prefill: 128 prompt tokens from an empty cache, tokens per second (after a warm-up run;
#     the median of three timed runs on each side);
#   - decode: 128 tokens one at a time after a 512-token prompt, tokens per second;
#   - the peak resident memory of the decode process (VmHWM), and what the target allows on
#     std: the packed weights (the model's bytes) + the cache of 640 positions + 64 MiB;
#   - the ratios onyx std / onnxruntime ort(_acc4) and onyx std / onnxruntime std (target: at
#     least 1.0).
# Then the checks: onyx's greedy tokens on f32 against onnxruntime's for 128 steps (the same
# ids), and the prompt's last logits on std against onnxruntime's on std (within 1e-3 of the
# largest logit).
# onyx runs `onyx generate` (its prompt 128 tokens a run for decode, so that a 512-token
# prompt's logits never sit in memory at once); onnxruntime runs bench/llm_bench_ort.js.
#
#   bench/llm_bench.sh [MODELS_FOLDER]
#     SIZE=100m|500m|1.5b  the decoder (default 100m)
#     ROUNDS=n             rounds (default 3)
#     THREADS="1 2"        thread counts
#     ONYX=DIR             a build folder holding tools/onyx/onyx (default: built here in
#                          build/bench)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ONYX:-build/bench}
models=${1:-build/bench-models}
size=${SIZE:-100m}
rounds=${ROUNDS:-3}
threads_list=${THREADS:-1 2}
node_dir=build/bench-node

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (nproc)"
echo "onyx: $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(date -u +%Y-%m-%dT%H:%MZ)"
if [ -z "${ONYX:-}" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_TESTS=OFF >/dev/null
  cmake --build "$build" --target onyx_tool onyx_python -j "$(nproc)" >/dev/null
fi
if [ ! -e "$node_dir/node_modules/onnxruntime-node/package.json" ]; then
  mkdir -p "$node_dir"
  cp bench/package.json "$node_dir/"
  (cd "$node_dir" && npm install --ignore-scripts --no-audit --no-fund >/dev/null)
fi
PYTHONPATH=$build/python /usr/bin/python3 bench/make_llm_models.py "$models" --size "$size"
PYTHONPATH=$build/python /usr/bin/python3 bench/make_llm_models.py "$models" --size "$size" \
  --forms ort --accuracy-level 4
onyx=$build/tools/onyx/onyx
results=build/bench/results
mkdir -p "$results"
out=$results/llm_$size.jsonl
: >"$out"

onyx_row() {  # form threads round [label flag...]: the row named label, onyx run with the flags
  local model=$models/llm_${size}_$1.onnx
  local label=${4:-$1}
  local flags=("${@:5}")
  local prefill=() decode rep
  # Three timed prefills, as onnxruntime's side takes the median of three (--reps 3).
  for rep in 1 2 3; do
    prefill+=("$("$onyx" generate "$model" --prompt-tokens 128 --new-tokens 0 --warmup 1 \
      --threads "$2" --json "${flags[@]}")")
  done
  decode=$("$onyx" generate "$model" --prompt-tokens 512 --new-tokens 128 --prompt-chunk 128 \
    --threads "$2" --json --logits "$results/llm_onyx_$label.logits" "${flags[@]}")
  /usr/bin/python3 -c '
import json, statistics, sys
prefills = [json.loads(text)["prompt_tokens_per_second"] for text in sys.argv[1:4]]
decode = json.loads(sys.argv[4])
print(json.dumps({"runtime": "onyx", "form": sys.argv[5], "threads": int(sys.argv[6]),
                  "round": int(sys.argv[7]),
                  "prefill": statistics.median(prefills),
                  "decode": decode["steps_tokens_per_second"],
                  "peak_mib": decode["peak_resident_mib"], "tokens": decode["tokens"]}))
' "${prefill[@]}" "$decode" "$label" "$2" "$3" >>"$out"
}

ort_row() {  # form threads round
  local model=$models/llm_${size}_$1.onnx
  [ -e "$model" ] || return 0
  local line
  line=$(NODE_PATH=$node_dir/node_modules node bench/llm_bench_ort.js "$model" --threads "$2" \
    --prefill 128 --reps 3 --warmup 1 --prompt 512 --new 128 \
    --logits "$results/llm_ort_$1.logits" | tail -1) || { echo "onnxruntime failed on $1"; return 0; }
  /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])
print(json.dumps({"runtime": "onnxruntime", "form": sys.argv[2], "threads": int(sys.argv[3]),
                  "round": int(sys.argv[4]), "prefill": d["prefill_tokens_per_second"],
                  "decode": d["decode_tokens_per_second"], "peak_mib": d["peak_rss_mb"],
                  "tokens": d["tokens"]}))
' "$line" "$1" "$2" "$3" >>"$out"
}

for threads in $threads_list; do
  for round in $(seq 1 "$rounds"); do
    echo "threads $threads, round $round of $rounds" >&2
    onyx_row std "$threads" "$round"
    onyx_row scatter "$threads" "$round"
    onyx_row std "$threads" "$round" std_int8 --int8-activations
    ort_row std "$threads" "$round"
    ort_row ort "$threads" "$round"
    ort_row ort_acc4 "$threads" "$round"
    onyx_row f32 "$threads" "$round"
    ort_row f32 "$threads" "$round"
  done
done

# The logits check against onnxruntime's exact products: by default onnxruntime runs a
# DequantizeLinear -> MatMul of int4 weights as MatMulNBits at accuracy level 4, its input
# rounded to int8 (session.qdq_matmulnbits_accuracy_level), which is not the model's function.
NODE_PATH=$node_dir/node_modules node bench/llm_bench_ort.js "$models/llm_${size}_std.onnx" \
  --threads 1 --prefill 0 --prompt 512 --new 0 --qdq-accuracy-level 0 \
  --logits "$results/llm_ort_std_exact.logits" >/dev/null || echo "onnxruntime failed on std"
PYTHONPATH=$build/python /usr/bin/python3 - "$out" "$models/llm_${size}_std.onnx" "$results" <<'EOF'
import json, os, statistics, sys
import numpy as np

rows = [json.loads(line) for line in open(sys.argv[1])]
std_model, results = sys.argv[2], sys.argv[3]
# The packed weights: the model's bytes, its external data's too.
weights = os.path.getsize(std_model) + (
    os.path.getsize(std_model + ".data") if os.path.exists(std_model + ".data") else 0)

def median(runtime, form, threads, key):
    values = [r[key] for r in rows if (r["runtime"], r["form"], r["threads"]) == (runtime, form, threads)]
    return statistics.median(values) if values else None

print("== prefill (128 tokens) and decode (128 after 512) tokens per second, medians; peak MiB")
print(f"{'threads':>7} {'runtime':<12} {'form':<9} {'prefill':>9} {'decode':>8} {'peak MiB':>9}")
for threads in sorted({r["threads"] for r in rows}):
    for runtime, form in [("onyx", "std"), ("onyx", "scatter"), ("onyx", "std_int8"),
                          ("onnxruntime", "std"),
                          ("onnxruntime", "ort"),
                          ("onnxruntime", "ort_acc4"), ("onyx", "f32"), ("onnxruntime", "f32")]:
        p = median(runtime, form, threads, "prefill")
        if p is None:
            continue
        print(f"{threads:>7} {runtime:<12} {form:<9} {p:>9.1f} {median(runtime, form, threads, 'decode'):>8.1f}"
              f" {median(runtime, form, threads, 'peak_mib'):>9.0f}")
    for form, anchor in [(f, a) for f in ("std", "scatter", "std_int8")
                         for a in ("ort", "ort_acc4", "std")]:
        mine = median("onyx", form, threads, "prefill"), median("onyx", form, threads, "decode")
        theirs = median("onnxruntime", anchor, threads, "prefill"), median("onnxruntime", anchor, threads, "decode")
        if None in mine or None in theirs:
            continue
        print(f"{threads:>7} onyx {form} / onnxruntime {anchor}: prefill {mine[0] / theirs[0]:.2f}, "
              f"decode {mine[1] / theirs[1]:.2f} (target >= 1.0)")
# The cache after 640 positions: per past input, KV heads x 640 x head size floats, from
# the shapes the std model declares.
try:
    import onyx
    model = onyx.load(std_model, load_external_data=False)
    cache = 0
    for value in model.graph.inputs:
        if value.name.startswith("past_key_values."):
            dims = value.shape
            cache += 640 * dims[1] * dims[3] * 4
    allowed = weights / 2**20 + cache / 2**20 + 64
    peaks = [r["peak_mib"] for r in rows if (r["runtime"], r["form"]) == ("onyx", "std")]
    print(f"peak resident memory, onyx on std: {max(peaks):.0f} MiB at most; the target: "
          f"{weights / 2**20:.0f} (weights) + {cache / 2**20:.1f} (cache) + 64 = {allowed:.0f} MiB")
except ImportError:
    pass
for form in ("f32",):
    mine = [r["tokens"] for r in rows if (r["runtime"], r["form"]) == ("onyx", form)]
    theirs = [r["tokens"] for r in rows if (r["runtime"], r["form"]) == ("onnxruntime", form)]
    if mine and theirs:
        a, b = mine[0], theirs[0]
        same = sum(1 for x, y in zip(a, b) if x == y)
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        print(f"greedy tokens on {form}: {same} of {min(len(a), len(b))} the same"
              + ("" if first is None else f" (first difference at step {first})"))
def last_logits(name, size=None):
    path = os.path.join(results, name)
    if not os.path.exists(path):
        return None
    values = np.fromfile(path, np.float32)
    return values if size is None else values[-size:]  # the prompt's last position

def compare_logits(mine_name, label, anchors, target=""):
    mine = last_logits(mine_name)
    if mine is None:
        return
    for name, what in anchors:
        theirs = last_logits(name, mine.size)
        if theirs is not None:
            relative = np.abs(mine - theirs).max() / np.abs(theirs).max()
            print(f"prompt logits, {label} against {what}: largest difference "
                  f"{relative:.2e} of the largest logit{target}")

compare_logits("llm_onyx_std.logits", "onyx std",
               [("llm_ort_std_exact.logits", "onnxruntime std, exact products (accuracy level 0)"),
                ("llm_ort_std.logits", "onnxruntime std as it runs by default (int8 products)"),
                ("llm_ort_f32.logits", "onnxruntime f32 (the dequantized weights)")],
               " (target 1e-3 against the exact products)")
compare_logits("llm_onyx_std_int8.logits", "onyx std --int8-activations",
               [("llm_ort_std_exact.logits", "the exact products"),
                ("llm_ort_std.logits", "onnxruntime's int8 products")])
EOF
