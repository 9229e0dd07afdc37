#include "passes/pass_helpers.h"

#include "onyx/ir/editor.h"
#include "onyx/ir/unique_names.h"
#include "onyx/ops/registry.h"

namespace onyx::passes_internal {

bool isKnownOperator(const Node& node, const CalleeResolver& callees) {
  return findOperator(node.domainOrDefault(), node.opType()) != nullptr ||
         callees.localFunction(node) != nullptr;
}

bool isOutput(const Value& value) {
  for (const Use& use : value.uses()) {
    if (use.isGraphOutput()) return true;
  }
  return false;
}

Bypass bypassOutput(const GraphEditor& edit, Node& node, size_t output, Value& replacement) {
  Value* old = node.output(output);
  if (old == nullptr || old == &replacement) return Bypass::kRefused;
  if (!isOutput(*old)) {
    old->replaceAllUsesWith(&replacement);
    if (node.hasUses()) return Bypass::kDone;
    return node.destroy() ? Bypass::kNodeRemoved : Bypass::kDone;
  }
  // The output's name is an interface: the replacement takes it over.
  for (size_t i = 0; i < node.outputCount(); ++i) {
    if (i != output && node.output(i) != nullptr && node.output(i)->hasUses()) {
      return Bypass::kRefused;
    }
  }
  if (replacement.producer() == nullptr || replacement.graph() != old->graph() ||
      isOutput(replacement)) {
    return Bypass::kRefused;
  }
  std::string_view name = old->name();
  old->replaceAllUsesWith(&replacement);
  if (!node.destroy()) {
    replacement.replaceUsesWith(old, [](const Use& use) { return use.isGraphOutput(); });
    return Bypass::kRefused;
  }
  // The name was the removed output's, so it is free; a failure would leave a valid graph
  // with the replacement's name on the output.
  (void)edit.rename(&replacement, name);
  return Bypass::kNodeRemoved;
}

}  // namespace onyx::passes_internal
