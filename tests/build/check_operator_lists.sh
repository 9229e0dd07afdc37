#!/usr/bin/env bash
# Facts about operators are traits on their schemas (OpTraits, set in the op files; `onyx ops`
# prints their names). The passes and the evaluator
# ask traitsOf(); they keep no list of the names of operators that carry a trait. A list is
# taken to be a line naming three or more such operators, or a braced initializer (braces
# with no statement inside) that does over several lines, one name per line; a rule about
# one or two named operators (Squeeze of an Unsqueeze) is not a list.
#   check_operator_lists.sh SOURCE_DIR
set -euo pipefail
root=$1
# The operators that carry a trait, from their op files.
names=$(grep -rl '\.traits = ' "$root/src/ops" | xargs sed -n 's/^[[:space:]]*\.name = "\([A-Za-z]*\)",.*/\1/p' |
  sort -u)
if [ -z "$names" ]; then
  echo "no operator carries a trait: the op files were not read"
  exit 1
fi
alternatives=$(paste -sd'|' <<<"$names")
found=$(grep -rnoE "\"($alternatives)\"" "$root/src/passes" "$root/src/eval" |
  cut -d: -f1,2 | uniq -c | awk '$1 >= 3 {print $2}' || true)
# Braced initializers over several lines: the innermost braces that hold no ';', each
# reported at the line it opens on.
found+=" "$(find "$root/src/passes" "$root/src/eval" -name '*.cc' -o -name '*.h' | sort |
  xargs awk -v names="$alternatives" '
    FNR == 1 { depth = 0 }
    {
      line = $0
      sub(/\/\/.*/, "", line)
      for (i = 1; i <= length(line); ++i) {
        c = substr(line, i, 1)
        if (c == "{") { ++depth; text[depth] = ""; start[depth] = FNR; plain[depth] = 1 }
        else if (c == "}" && depth > 0) {
          if (plain[depth] && start[depth] != FNR) {
            count = 0; rest = text[depth]
            while (match(rest, "\"(" names ")\"")) { ++count; rest = substr(rest, RSTART + RLENGTH) }
            if (count >= 3) print FILENAME ":" start[depth]
          }
          --depth
          if (depth > 0) plain[depth] = 0
        }
        else if (depth > 0) { text[depth] = text[depth] c; if (c == ";") plain[depth] = 0 }
      }
      if (depth > 0) text[depth] = text[depth] " "
    }')
found=$(tr ' ' '\n' <<<"$found" | sed '/^$/d' || true)
if [ -n "$found" ]; then
  echo "lines that list operators carrying a trait (ask traitsOf instead):"
  for place in $found; do
    file=${place%%:*}
    line=${place##*:}
    echo "$place: $(sed -n "${line}p" "$file")"
  done
  exit 1
fi
echo "no list of operators that carry a trait in src/passes or src/eval ($(wc -w <<<"$names") operators)"
