#!/usr/bin/env bash
# The default domain has two spellings, "" and "ai.onnx" (onyx/ir/opset_imports.h): ir
# compares them through canonicalDomain, names them through domainLabel and tells a standard
# operator with isStandardOperator; the op tables spell the registry's domain (kOnnxDomain).
# No other code may write the string "ai.onnx" (comments may).
#   check_default_domain_spelling.sh SOURCE_DIR
set -euo pipefail
root=$1
found=$(grep -rnE '"ai\.onnx"' "$root/src" "$root/include" "$root/python/src" "$root/tools" |
  grep -vE '^[^:]*:[0-9]+:[[:space:]]*//' |
  grep -vE '^[^:]*/(src|include/onyx)/ir/' |
  grep -vE '^[^:]*/src/ops/|^[^:]*/include/onyx/ops/op_schema\.h:' || true)
if [ -n "$found" ]; then
  echo "the default domain spelled by hand (use canonicalDomain, domainLabel or isStandardOperator):"
  echo "$found"
  exit 1
fi
echo "the default domain is spelled in ir and the op tables only"
