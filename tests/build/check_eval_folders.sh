#!/usr/bin/env bash
# The evaluator's folders are layers, each seeing only those before it:
#   kernels < layout < fusions < providers < engine
# (the files at src/eval's top, the Evaluator and the NodeEvaluator, see them all). A file may
# include headers of its own folder and of the folders below it, never of one above.
#   check_eval_folders.sh SOURCE_DIR [FOLDER]   (FOLDER: only that folder's includes)
set -euo pipefail
root=$1
only=${2:-}
order=(kernels layout fusions providers engine)
status=0
for ((i = 0; i < ${#order[@]}; ++i)); do
  folder=${order[i]}
  [ -n "$only" ] && [ "$only" != "$folder" ] && continue
  above=("${order[@]:i+1}")
  [ ${#above[@]} -eq 0 ] && continue
  pattern=$(IFS='|'; echo "${above[*]}")
  found=$(grep -rnE "#include \"eval/($pattern)/" "$root/src/eval/$folder" || true)
  if [ -n "$found" ]; then
    echo "src/eval/$folder includes a folder above it (${above[*]}):"
    echo "$found"
    status=1
  fi
done
[ $status -eq 0 ] && echo "src/eval/${only:-*} includes only its own folder and those below it"
exit $status
