# Sourced by the benchmarks that time onyx as whole processes (optimize_chain_bench.sh,
# inline_bench.sh). They set `results`, the folder for the logs.

# measure NAME COMMAND...: runs COMMAND once under /usr/bin/time, its output in
# $results/NAME.log, and prints a row of its wall time and peak RSS; the peak, in MiB, is
# left in `peak_mib`, the wall time in $results/NAME.time. Returns COMMAND's exit status.
measure() {
  local name=$1
  shift
  local log=$results/$name.time
  local status=0
  /usr/bin/time -f "%e %M" -o "$log.raw" "$@" >"$results/$name.log" 2>&1 || status=$?
  # time writes "Command exited with non-zero status N" above the figures when it failed.
  tail -n 1 "$log.raw" >"$log"
  rm -f "$log.raw"
  local seconds kib
  read -r seconds kib <"$log"
  peak_mib=$(echo "$kib / 1024" | bc -l)
  printf '%-26s %7.2f s %8.1f MiB%s\n' "$name" "$seconds" "$peak_mib" \
    "$([ "$status" -eq 0 ] || echo " (exit $status)")"
  return "$status"
}

# node_count BINARY MODEL: the node count `onyx info` gives.
node_count() {
  "$1" info "$2" | sed -n 's/^nodes: *\([0-9]*\).*/\1/p' | head -1
}
