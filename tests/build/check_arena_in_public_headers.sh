#!/usr/bin/env bash
# Every public change that allocates goes through GraphEditor (onyx/ir/editor.h), the one
# public place that hands out the model's arena; Patch records edits on top of it. No other
# installed header may take or give an Arena& (core/arena.h defines it), so that a second
# way to edit cannot grow back beside the editor.
#   check_arena_in_public_headers.sh SOURCE_DIR
set -euo pipefail
root=$1
found=$(grep -rnE '\bArena[[:space:]]*&' "$root/include/onyx" |
  grep -vE '^[^:]*/include/onyx/(core/arena\.h|ir/editor\.h):' || true)
if [ -n "$found" ]; then
  echo "an Arena& outside core/arena.h and ir/editor.h (take a GraphEditor or a Patch instead):"
  echo "$found"
  exit 1
fi
echo "only core/arena.h and ir/editor.h name Arena& among the public headers"
