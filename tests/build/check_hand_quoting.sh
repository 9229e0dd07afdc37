#!/usr/bin/env bash
# A name in a message is quoted by onyx::quoted (onyx/core/quote.h), which escapes what would
# break the message's line and cuts what is too long: none may be quoted by hand, in the
# library, the command line or the Python package: neither "'" + name + "'" nor a format
# string's '{}'.
#   check_hand_quoting.sh SOURCE_DIR
set -euo pipefail
pattern="\"[^\"]*'\" \\+ |\\+ \"'[^\"]*\"|'\\{\\}'"
found=$(grep -rnE "$pattern" "$1/src" "$1/tools" "$1/python/src" || true)
if [ -n "$found" ]; then
  echo "names quoted by hand (use quoted() of onyx/core/quote.h):"
  echo "$found"
  exit 1
fi
echo "no name is quoted by hand"
