// Internal: the outputs of the training optimizers (Adagrad, Adam, Momentum).
#pragma once

#include <cstddef>
#include <initializer_list>

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// After the inputs R and T come `groups` groups of n tensors each (X, G, then the
/// optimizer's state); output group j is input group `copied[j]` updated, of its shapes.
/// Fails when the inputs after R and T are not a multiple of `groups` or the outputs not
/// as many as `copied` groups.
void inferOptimizerOutputs(InferenceContext& ctx, size_t groups,
                           std::initializer_list<size_t> copied);

}  // namespace onyx::ops
