// onyx/eval/node_evaluator.h — the evaluator's way of running one node, for passes that fold
// constants (onyx/passes/pass.h's NodeEvaluator).
//
//   onyx::KernelNodeEvaluator evaluator;
//   onyx::OptimizeOptions options;
//   options.node_evaluator = &evaluator;         // constant-folding folds through it
//   onyx::optimize(model, options);
//
// The passes layer does not link the evaluator; a program that links it (onyx::onyx) hands
// one of these to onyx::optimize.
#pragma once

#include <span>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/ops/eval_value.h"
#include "onyx/passes/pass.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Runs a node as `onyx run` runs a node that is not fused with others: a kernel provider's
/// kernel when one takes the node (oneDNN), else the operator's own kernel, with the
/// evaluator's native kernels. Refused (kUnsupported): calls of model-local functions, and
/// operators onyx runs through their function body (no kernel of their own), nodes that hold
/// graphs, and nodes whose attributes refer to a calling function's. Stateless between calls;
/// one call at a time.
class KernelNodeEvaluator final : public NodeEvaluator {
 public:
  Result<std::vector<EvalValue>> run(const Model& model, const Node& node,
                                     std::span<const EvalValue> inputs) override;
};

}  // namespace onyx

#pragma GCC visibility pop
