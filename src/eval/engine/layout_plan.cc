// Which values of a compiled graph stay channels-last (layout_plan.h).
#include "eval/engine/layout_plan.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "eval/fusions/fusion_pattern.h"
#include "eval/layout/channels_last_kernels.h"
#include "ir/nested_reads.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/value.h"

namespace onyx::eval_internal {

bool oneElementConstant(const Value* value, InitializerInputs initializer_inputs) {
  auto oneElement = [](const Tensor* tensor) {
    if (tensor == nullptr || tensor->dims.size() > 4) return false;
    return std::all_of(tensor->dims.begin(), tensor->dims.end(),
                       [](int64_t dim) { return dim == 1; });
  };
  if (const Tensor* tensor = constantTensor(value, initializer_inputs)) return oneElement(tensor);
  const Node* producer = value != nullptr ? value->producer() : nullptr;
  return producer != nullptr && isStandardOperator(*producer, "Constant") &&
         (producer->attribute("value_float") != nullptr ||
          producer->attribute("value_int") != nullptr);
}

void planLayouts(GraphPlan& plan, std::span<const Provider* const> providers,
                 const std::unordered_set<const Value*>& results,
                 InitializerInputs initializer_inputs) {
  // The values that may stay channels-last, each with the step that writes it: a fused step
  // that can write its output so, or a node alone with a channels-last kernel.
  std::unordered_map<const Node*, size_t> step_of;
  std::unordered_map<const Value*, size_t> candidates;
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const PlanStep& step = plan.steps[s];
    for (size_t member : step.members) step_of.emplace(plan.nodes[member].node, s);
    if (step.fused != nullptr) {
      if ((step.fused->mayGive() & kChannelsLast) != 0) candidates.emplace(step.fused->output(), s);
      continue;
    }
    BoundNode& bound = plan.nodes[step.members.front()];
    // A node with a provided kernel too (onyx's float16-as-float) runs through its
    // channels-last kernel where the plan keeps its values so, and the provided one elsewhere.
    if (bound.kernel != nullptr && bound.function == nullptr) {
      for (const Provider* provider : providers) {
        bound.channels_last_kernel = provider->channelsLast(*bound.node, bound.schema);
        if (bound.channels_last_kernel == nullptr) continue;
        bound.channels_last_by = std::string(provider->name()) + " (channels-last)";
        break;
      }
    }
    if (bound.channels_last_kernel != nullptr) candidates.emplace(bound.node->output(0), s);
  }
  // Read from inside a subgraph: such a read sees the value as it is.
  std::unordered_set<const Value*> nested;
  for (const BoundNode& bound : plan.nodes) {
    forEachNestedRead(*bound.node, [&](const Value* value) { nested.insert(value); });
  }
  // Whether the step of `use` reads its value channels-last, given the candidates left.
  auto readsChannelsLast = [&](const Use& use) {
    auto reader = use.user() != nullptr ? step_of.find(use.user()) : step_of.end();
    if (reader == step_of.end()) return false;
    const PlanStep& step = plan.steps[reader->second];
    if (step.fused != nullptr) return (step.fused->takes(use.value()) & kChannelsLast) != 0;
    const BoundNode& bound = plan.nodes[step.members.front()];
    return bound.channels_last_kernel != nullptr && candidates.contains(bound.node->output(0)) &&
           bound.channels_last_kernel->image(use.index());
  };
  // A value stays channels-last when each of its readers reads it so; a node alone runs
  // channels-last when its output stays so and each image it reads is channels-last or a
  // constant of one element (the same in both layouts).
  auto keeps = [&](const Value* value, const PlanStep& step) {
    if (results.contains(value) || nested.contains(value) || !value->hasUses()) return false;
    for (const Use& use : value->uses()) {
      if (!readsChannelsLast(use)) return false;
    }
    if (step.fused != nullptr) return true;
    const BoundNode& bound = plan.nodes[step.members.front()];
    for (size_t i = 0; i < bound.node->inputCount(); ++i) {
      const Value* input = bound.node->input(i);
      if (input == nullptr || !bound.channels_last_kernel->image(i)) continue;
      if (!candidates.contains(input) && !oneElementConstant(input, initializer_inputs)) {
        return false;
      }
    }
    return true;
  };
  // Dropping a value can only drop the outputs of the nodes alone that read it and the
  // images of the node alone that wrote it: a worklist, each value checked again only then.
  std::vector<const Value*> work;
  for (const auto& [value, s] : candidates) work.push_back(value);
  while (!work.empty()) {
    const Value* value = work.back();
    work.pop_back();
    auto candidate = candidates.find(value);
    if (candidate == candidates.end()) continue;
    const PlanStep& step = plan.steps[candidate->second];
    if (keeps(value, step)) continue;
    candidates.erase(candidate);
    for (const Use& use : value->uses()) {
      if (use.user() != nullptr && use.user()->outputCount() > 0) {
        work.push_back(use.user()->output(0));
      }
    }
    if (step.fused == nullptr) {
      const Node& node = *plan.nodes[step.members.front()].node;
      for (size_t i = 0; i < node.inputCount(); ++i) work.push_back(node.input(i));
    }
  }
  for (PlanStep& step : plan.steps) {
    if (step.fused != nullptr) {
      step.fused->setWritesChannelsLast(candidates.contains(step.fused->output()));
      continue;
    }
    BoundNode& bound = plan.nodes[step.members.front()];
    bound.channels_last =
        bound.channels_last_kernel != nullptr && candidates.contains(bound.node->output(0));
  }
}

}  // namespace onyx::eval_internal
