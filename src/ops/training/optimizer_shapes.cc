#include "ops/training/optimizer_shapes.h"

#include <string>

namespace onyx::ops {

void inferOptimizerOutputs(InferenceContext& ctx, size_t groups,
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
