#!/usr/bin/env bash
# Issue 45's memory benchmark (shared weights): what further sessions of one model file cost.
#   1. In one process, one session (loadModel + Evaluator + one run), then more of the same file
#      up to SESSIONS (8), all kept: the resident set (VmRSS) of SESSIONS against one's (target:
#      at most 1.2x), split into anonymous and file-backed pages, the pages of the model's
#      files (the model and its external data beside it) and how many mappings of them the
#      process has, and what each session added at each step (bench/session_memory.cc says
#      what each figure is).
#   2. PROCESSES (4) processes, each with one session run once, all alive at once: the sum of
#      their proportional set sizes (Pss of /proc/PID/smaps_rollup: a page shared by n
#      processes counts 1/n in each) against PROCESSES times one process's RSS, and the Pss
#      of the model's files' pages (/proc/PID/smaps), which the processes share where they
#      read the files' pages instead of copies of them.
# The figures are for one host and state of the page cache: the CPU is printed first.
#
#   bench/session_memory.sh [MODEL]   (default build/bench-models/eval_resnet50.onnx, 102 MB of
#                                      float32 weights, written by bench/make_eval_models.py)
#     SESSIONS=n   sessions in the one process (default 8)
#     PROCESSES=n  processes of part 2 (default 4)
#     THREADS=n    threads each session's kernels use (default 1)
#     ONYX=DIR     a build folder configured with -DONYX_BENCH=ON that holds
#                  bench/onyx_bench_session_memory (default: configured and built here, in
#                  build/bench)
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-build/bench-models/eval_resnet50.onnx}
sessions=${SESSIONS:-8}
processes=${PROCESSES:-4}
threads=${THREADS:-1}
build=${ONYX:-build/bench}
if [ -z "${ONYX:-}" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DONYX_BENCH=ON -DONYX_TESTS=OFF \
    >/dev/null
  cmake --build "$build" --target onyx_bench_session_memory -j "$(nproc)" >/dev/null
fi
tool=$build/bench/onyx_bench_session_memory
if [ ! -e "$model" ] && [ -z "${1:-}" ]; then
  /usr/bin/python3 bench/make_eval_models.py "$(dirname "$model")"
fi
[ -e "$model" ] || { echo "no model $model" >&2; exit 1; }

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1); $(nproc) cores;" \
  "onyx $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "model: $model ($(stat -c %s "$model") bytes); $threads thread(s) per session"
work=$(mktemp -d)
trap 'exec 9>&- 2>/dev/null || true; rm -rf "$work"' EXIT

# 1. One process, 1 then $sessions sessions.
"$tool" "$model" --sessions="$sessions" --threads="$threads" | tee "$work/one.txt"
awk -F'|' -v sessions="$sessions" '
  function mb(kib) { return sprintf("%.1f MiB", kib / 1024) }
  /^MEMORY\|/ { rss[$2] = $3; anon[$2] = $4; file[$2] = $5; model[$2] = $6; maps[$2] = $7 }
  /^WEIGHTS\|/ { weights = $2 }
  END {
    n = sessions
    printf "== one process: %d sessions of one model file (weights %.1f MiB)\n", n, weights / 1048576
    printf "  before any session: RSS %s\n", mb(rss[0])
    printf "  1 session:  RSS %s = anonymous %s + file-backed %s (model files %s, %d mapping%s)\n",
      mb(rss[1]), mb(anon[1]), mb(file[1]), mb(model[1]), maps[1], maps[1] == 1 ? "" : "s"
    printf "  %d sessions: RSS %s = anonymous %s + file-backed %s (model files %s, %d mapping%s)\n",
      n, mb(rss[n]), mb(anon[n]), mb(file[n]), mb(model[n]), maps[n], maps[n] == 1 ? "" : "s"
    if (n > 1) {
      printf "  each further session: %s, of which anonymous %s and file-backed %s\n",
        mb((rss[n] - rss[1]) / (n - 1)), mb((anon[n] - anon[1]) / (n - 1)),
        mb((file[n] - file[1]) / (n - 1))
    }
    ratio = rss[n] / rss[1]
    printf "SUMMARY|%d sessions in one process: RSS %s against %s for one|%.2f|<= 1.2|%s\n",
      n, mb(rss[n]), mb(rss[1]), ratio, ratio <= 1.2 ? "holds" : "MISSED"
  }' "$work/one.txt"
one_rss=$(awk -F'|' '$1 == "MEMORY" && $2 == 1 { print $3 }' "$work/one.txt")

# 2. $processes processes with one session each, read while all are alive. Each waits for
# the end of its standard input, a FIFO this script holds open until it has read them all.
mkfifo "$work/release"
pids=()
for ((i = 0; i < processes; ++i)); do
  "$tool" "$model" --hold --threads="$threads" <"$work/release" >"$work/held.$i" &
  pids+=($!)
done
exec 9>"$work/release"
for ((i = 0; i < processes; ++i)); do
  until grep -q '^HELD|' "$work/held.$i"; do
    kill -0 "${pids[i]}" 2>/dev/null || { echo "process $i failed" >&2; exit 1; }
    sleep 0.2
  done
done
model_folder=$(dirname "$(realpath "$model")")/
for ((i = 0; i < processes; ++i)); do
  pid=${pids[i]}
  # The whole process (smaps_rollup), then the mappings of the model's files alone (smaps).
  awk '/^(Rss|Pss|Pss_Anon|Pss_File):/ { printf "%s %s ", $1, $2 }' "/proc/$pid/smaps_rollup"
  awk -v folder="$model_folder" '
    /^[0-9a-f]+-[0-9a-f]+ / { inside = (index($6, folder) == 1) }
    inside && /^Rss:/ { rss += $2 }
    inside && /^Pss:/ { pss += $2 }
    END { printf "ModelRss: %d ModelPss: %d\n", rss, pss }' "/proc/$pid/smaps"
done >"$work/pss.txt"
exec 9>&-
wait "${pids[@]}"
awk -v processes="$processes" -v one_rss="$one_rss" '
  function mb(kib) { return sprintf("%.1f MiB", kib / 1024) }
  {
    for (f = 1; f < NF; f += 2) value[$f] = $(f + 1)
    printf "  process %d: RSS %s, PSS %s (anonymous %s, file-backed %s); model files RSS %s, PSS %s\n",
      NR, mb(value["Rss:"]), mb(value["Pss:"]), mb(value["Pss_Anon:"]), mb(value["Pss_File:"]),
      mb(value["ModelRss:"]), mb(value["ModelPss:"])
    pss += value["Pss:"]; anon += value["Pss_Anon:"]; file += value["Pss_File:"]
    model_rss = value["ModelRss:"]; model_pss += value["ModelPss:"]
  }
  END {
    printf "== %d processes, one session each, alive at once\n", processes
    printf "  total PSS %s = anonymous %s + file-backed %s; the model files: PSS %s in all, RSS %s in each\n",
      mb(pss), mb(anon), mb(file), mb(model_pss), mb(model_rss)
    printf "SUMMARY|%d processes: total PSS %s against %d x one process RSS %s|%.2f|-|%s\n",
      processes, mb(pss), processes, mb(processes * one_rss), pss / (processes * one_rss),
      model_pss <= 1.1 * model_rss ? "model files shared" : "model files NOT shared"
  }' "$work/pss.txt"
