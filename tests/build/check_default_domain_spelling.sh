#!/usr/bin/env bash
# The default domain has two spellings, "" and "ai.onnx" (onyx/ir/opset_imports.h): ir
# compares them through canonicalDomain, names them through domainLabel and tells a standard
# operator with isStandardOperator; the op tables spell the registry's domain (kOnnxDomain).
# No other code may write the string "ai.onnx" (comments may), or tell the default domain by
# an empty domainOrDefault() (which misses "ai.onnx").
#   check_default_domain_spelling.sh SOURCE_DIR
set -euo pipefail
root=$1
found=$(grep -rnE '"ai\.onnx"' "$root/src" "$root/include" "$root/python/src" "$root/tools" |
  grep -vE '^[^:]*:[0-9]+:[[:space:]]*//' |
  grep -vE '^[^:]*/(src|include/onyx)/ir/' |
  grep -vE '^[^:]*/src/ops/|^[^:]*/include/onyx/ops/op_schema\.h:' || true)
found+=$(grep -rnE 'domainOrDefault\(\)\.empty\(\)|domainOrDefault\(\) == ""' \
  "$root/src" "$root/include" "$root/python/src" "$root/tools" |
  grep -vE '^[^:]*/(src|include/onyx)/ir/' || true)
if [ -n "$found" ]; then
  echo "the default domain spelled by hand (use canonicalDomain, domainLabel or isStandardOperator):"
  echo "$found"
  exit 1
fi
echo "the default domain is spelled in ir and the op tables only"
