#!/usr/bin/env bash
# The passes edit a graph through Patch only (onyx/ir/patch.h): they record their edits and
# apply them in one step, so that one that fails half-way leaves the model as it was.
#
# The rule checked: in src/passes, no call of a method that changes a graph's structure or
# names (the list below, of Graph, Node, Value and GraphEditor) on anything but a patch: the
# receiver must be named like a patch ("patch", "patch_", "patches.of(...)"), be a rewrite's
# builder ("builder": a RewriteBuilder, onyx/passes/pattern.h, records into one) or a graph a
# patch stages ("staged": a StagedGraph, onyx/ir/patch.h, built for a node the patch adds and
# discarded with it). Setting the attributes of a node the patch adds, or of
# patch.attributesFor(node), is not an edit of the graph and is not checked.
#
# The files listed in `not_yet` still edit the graph directly; each is to move onto Patch and
# leave the list. A file on the list that no longer needs to be there fails the probe too.
#   check_passes_edit_through_patch.sh SOURCE_DIR
set -euo pipefail
root=$1
methods='destroy|replaceAllUsesWith|replaceUsesWith|setInput|removeNode|appendNode|prependNode'
methods+='|insertBefore|insertAfter|removeInitializers?|rename|addInitializer|addSparseInitializer'
methods+='|removeInput|removeAllInputs|addInput|insertInput|addOutput|addOutputNamed'
methods+='|handOverOutput|setType|removeAttr|removeOutput'
not_yet=()
status=0
cd "$root/src/passes"
for file in $(find . -name '*.cc' -o -name '*.h' | sed 's|^\./||' | sort); do
  calls=$(grep -nE "(\.|->)($methods)\(" "$file" |
    grep -vE "([Pp]atch(es)?_?|builder|staged)(\.of\(([^()]|\([^()]*\))*\))?(\(\))?(\.|->)($methods)\(" |
    grep -vE '^[0-9]+:\s*//' || true)
  listed=0
  for pending in "${not_yet[@]}"; do [ "$pending" = "$file" ] && listed=1; done
  if [ -n "$calls" ] && [ $listed -eq 0 ]; then
    echo "src/passes/$file edits a graph other than through a Patch:"
    echo "$calls"
    status=1
  elif [ -z "$calls" ] && [ $listed -eq 1 ]; then
    echo "src/passes/$file edits through Patch only now: take it off the probe's list"
    status=1
  fi
done
[ $status -eq 0 ] && echo "src/passes edits graphs through Patch only"
exit $status
