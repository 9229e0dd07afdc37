#include "passes/pass_helpers.h"

#include <vector>

#include "onyx/ir/editor.h"
#include "onyx/ir/function.h"
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

size_t removeUncalledFunctions(Model& model) {
  if (model.functions.empty()) return 0;
  CalleeResolver callees(model);
  std::unordered_set<const Function*> called;
  std::vector<const Function*> work;
  auto visit = [&](const Graph& graph) {
    graph.forEachNode([&](const Node* node) {
      const Function* function = callees.localFunction(*node);
      if (function != nullptr && called.insert(function).second) work.push_back(function);
    });
  };
  if (model.graph != nullptr) visit(*model.graph);
  for (const TrainingInfo* info : model.training_info) {
    if (info->initialization != nullptr) visit(*info->initialization);
    if (info->algorithm != nullptr) visit(*info->algorithm);
  }
  while (!work.empty()) {
    const Function* function = work.back();
    work.pop_back();
    if (function->body != nullptr) visit(*function->body);
  }
  std::vector<const Function*> unused;
  for (const Function* function : model.functions) {
    if (!called.contains(function)) unused.push_back(function);
  }
  for (const Function* function : unused) model.removeFunction(function);
  return unused.size();
}

Value* Bypasses::resolved(Value* value) const {
  for (auto found = replaced_.find(value); found != replaced_.end();
       found = replaced_.find(value)) {
    value = found->second;
  }
  return value;
}

bool Bypasses::otherOutputsRead(const Node& node, size_t output) const {
  for (size_t i = 0; i < node.outputCount(); ++i) {
    const Value* other = node.output(i);
    if (i == output || other == nullptr) continue;
    // Readers moved away by a recorded bypass no longer count; readers moved here do.
    if ((other->hasUses() && !replaced_.contains(other)) || gained_.contains(other)) return true;
  }
  return false;
}

void Bypasses::remove(Node& node) {
  if (!removed_.insert(&node).second) return;
  patches_.of(*node.graph()).removeNode(&node);
}

Bypass Bypasses::bypass(Node& node, size_t output, Value& given) {
  Value* old = node.output(output);
  Value* replacement = resolved(&given);
  if (old == nullptr || old == replacement || removed_.contains(&node) || replaced_.contains(old) ||
      renamed_.contains(old)) {
    return Bypass::kRefused;
  }
  Patch& patch = patches_.of(*node.graph());
  if (!isOutput(*old)) {
    patch.replaceAllUsesWith(old, replacement);
    replaced_.emplace(old, replacement);
    gained_.insert(replacement);
    if (otherOutputsRead(node, output)) return Bypass::kDone;
    patch.removeNode(&node);
    removed_.insert(&node);
    return Bypass::kNodeRemoved;
  }
  // The output's name is an interface: the replacement takes it over.
  if (otherOutputsRead(node, output) || replacement->producer() == nullptr ||
      replacement->graph() != old->graph() || removed_.contains(replacement->producer()) ||
      isOutput(*replacement) || renamed_.contains(replacement)) {
    return Bypass::kRefused;
  }
  patch.replaceAllUsesWith(old, replacement);
  replaced_.emplace(old, replacement);
  gained_.insert(replacement);
  patch.removeNode(&node);
  removed_.insert(&node);
  // The removed node gives the name back before the rename takes it.
  patch.renameValue(replacement, old->name());
  renamed_.insert(replacement);
  return Bypass::kNodeRemoved;
}

}  // namespace onyx::passes_internal
