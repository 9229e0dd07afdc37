#!/usr/bin/env bash
# docs/opset-steps.md is what `onyx ops --version-steps` prints from the op files, so that no
# version step can be added, reviewed or changed without the table saying so.
#   version_steps_table.sh ONYX SOURCE_DIR   (UPDATE=1 rewrites the file)
set -euo pipefail
onyx=$1
table=$2/docs/opset-steps.md
if [ "${UPDATE:-0}" = 1 ]; then
  "$onyx" ops --version-steps >"$table"
  echo "wrote $table"
  exit 0
fi
if ! diff -u "$table" <("$onyx" ops --version-steps); then
  echo "docs/opset-steps.md differs from the op files; regenerate it with"
  echo "  UPDATE=1 tests/tools/version_steps_table.sh ONYX ."
  exit 1
fi
echo "docs/opset-steps.md matches the op files"
