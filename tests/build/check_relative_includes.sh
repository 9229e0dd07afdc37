#!/usr/bin/env bash
# The layer views (src/CMakeLists.txt) hold only for includes rooted at a layer: an include
# that climbs out of its folder ("../eval/x.h") would reach any layer. None may.
#   check_relative_includes.sh SOURCE_DIR
set -euo pipefail
found=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.\./' "$1/src" "$1/include" || true)
if [ -n "$found" ]; then
  echo "includes that climb out of their folder:"
  echo "$found"
  exit 1
fi
echo "no include climbs out of its folder"
