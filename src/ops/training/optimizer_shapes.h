// Internal: the outputs of the training optimizers (Adagrad, Adam, Momentum).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// After the inputs R and T come `groups` groups of n tensors each (X, G, then the
/// optimizer's state); output group j is input group `copied[j]` updated, of its shapes.
/// Fails when the inputs after R and T are not a multiple of `groups` or the outputs not
/// as many as `copied` groups.
void inferOptimizerOutputs(InferenceContext& ctx, size_t groups,
                           std::initializer_list<size_t> copied);

// ---- definitions (header-only: every .cc under src/ops/<family>/ defines an operator) ----

inline void inferOptimizerOutputs(InferenceContext& ctx, size_t groups,
                                  std::initializer_list<size_t> copied) {
  size_t tensors = ctx.inputCount() > 2 ? ctx.inputCount() - 2 : 0;
  if (tensors == 0 || tensors % groups != 0) {
    ctx.fail(std::to_string(tensors) + " inputs after R and T, not a multiple of " +
             std::to_string(groups));
    return;
  }
  size_t n = tensors / groups;
  if (ctx.outputCount() != n * copied.size()) {
    ctx.fail(std::to_string(ctx.outputCount()) + " outputs for " + std::to_string(n) +
             " optimized tensors, not " + std::to_string(n * copied.size()));
    return;
  }
  size_t output = 0;
  for (size_t group : copied) {
    for (size_t i = 0; i < n; ++i, ++output) {
      const InferredType* type = ctx.inputType(2 + group * n + i);
      if (ctx.hasOutput(output) && type != nullptr) ctx.setOutputType(output, *type);
    }
  }
}

}  // namespace onyx::ops
