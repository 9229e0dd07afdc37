// Internal to the evaluator: which values of a compiled graph stay channels-last.
//
// oneDNN's convolutions read and write channels-last tensors (N, H, W, C). A fused step that
// can write its output so (FusedStep::mayGive), or a node alone with a
// channels-last kernel from a provider (channels_last_kernels.h), is a candidate; a value
// stays channels-last only when every step that reads it reads that layout, and a node alone
// runs so only when each image it reads is channels-last too or a constant of one element.
// The rest of the graph sees values as the model lays them out: the graph's inputs and
// outputs, values read inside subgraphs, and what an operator without such a kernel reads.
// Decided once, when a graph is compiled, and only with fusions on (the literal path never
// sees a channels-last value); the executor converts a value where a step reads it in the
// other layout (Executor::runStep).
#pragma once

#include <span>
#include <unordered_set>

#include "eval/engine/plan.h"
#include "eval/providers/provider.h"
#include "onyx/ir/constant_value.h"

namespace onyx::eval_internal {

/// Marks the steps of `plan` that write channels-last (FusedStep::setWritesChannelsLast,
/// BoundNode::channels_last) and gives the nodes alone their channels-last kernels from
/// `providers`. `results` are the values the graph gives back, which stay as they are.
void planLayouts(GraphPlan& plan, std::span<const Provider* const> providers,
                 const std::unordered_set<const Value*>& results,
                 InitializerInputs initializer_inputs);

/// Whether `value` is a constant of one element and rank at most 4 (a fixed initializer or
/// a Constant node's): the same in channels-first and channels-last layout.
bool oneElementConstant(const Value* value, InitializerInputs initializer_inputs);

}  // namespace onyx::eval_internal
