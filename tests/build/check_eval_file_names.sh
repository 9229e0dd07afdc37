#!/usr/bin/env bash
# No two files of the evaluator share a name (a kernel and the fusion that runs it, two
# providers): a name says which one a stack trace, a profile or a review means.
#   check_eval_file_names.sh SOURCE_DIR
set -euo pipefail
root=$1
twins=$(find "$root/src/eval" -type f \( -name '*.h' -o -name '*.cc' \) -printf '%f\n' | sort | uniq -d)
if [ -n "$twins" ]; then
  echo "files of src/eval that share a name:"
  for name in $twins; do find "$root/src/eval" -name "$name"; done
  exit 1
fi
echo "every file of src/eval has a name of its own"
