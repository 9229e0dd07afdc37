#!/usr/bin/env bash
# Inference that only reads a model takes it as const (inferModel(const Model&, ...), which
# writes nothing back), so no code casts a model's constness away to infer it, or for any
# other reason: a const Model& is a promise the callee keeps.
#   check_model_const_casts.sh SOURCE_DIR
set -euo pipefail
root=$1
found=$(grep -rnE 'const_cast<[[:space:]]*(const[[:space:]]+)?Model[[:space:]]*[&*]' \
  "$root/src" "$root/tools" "$root/python/src" || true)
if [ -n "$found" ]; then
  echo "a Model's constness cast away (infer a const model with inferModel(const Model&, ...)):"
  echo "$found"
  exit 1
fi
echo "no const_cast of a Model in src, tools or python/src"
