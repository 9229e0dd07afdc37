#!/usr/bin/env bash
# What the libraries bring their users: the light core links no oneDNN, OpenMP or image
# library, and each shared library exports the public API and no internal symbol.
#   check_libraries.sh CORE_PROGRAM LIBRARY.so...
set -euo pipefail
program=$1
shift
status=0
# Read whole before matching: grep -q would stop reading early, and under pipefail ldd's
# SIGPIPE would fail the pipeline.
linked=$(ldd "$program")
heavy=$(grep -E 'libdnnl|libgomp|libjpeg|libpng|libtiff|libwebp|libopenjp2' <<<"$linked" || true)
if [ -n "$heavy" ]; then
  echo "$program links what the light core must not:"
  echo "$heavy"
  status=1
fi
grep -q 'libonyx_core\.so' <<<"$linked" || {
  echo "$program does not link libonyx_core.so"
  status=1
}
for library in "$@"; do
  exported=$(nm -DC --defined-only "$library")
  # Internal namespaces: the layers' own, the operator files', and every *_internal.
  internal=$(grep -E 'onyx::(check|serde|text|wire|infer|eval|passes|ops)::|_internal::' <<<"$exported" || true)
  if [ -n "$internal" ]; then
    echo "$library exports $(wc -l <<<"$internal") internal symbols, for example:"
    head -5 <<<"$internal"
    status=1
  fi
  grep -q 'onyx::loadModel' <<<"$exported" || {
    echo "$library does not export onyx::loadModel"
    status=1
  }
done
[ "$status" -eq 0 ] && echo "light core and exports as they should be"
exit "$status"
