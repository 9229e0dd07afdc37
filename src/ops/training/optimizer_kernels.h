// Internal: what the kernels of the optimizers (Adagrad, Adam, Momentum) share: reading R
// and T, and updating n tensors element by element (computed in double, stored back in each
// tensor's element type).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/kernels.h"

namespace onyx::ops {

/// Runs an optimizer whose inputs after R and T are `per` groups of n tensors (X, G, and
/// the states) and whose outputs are X_new and the new states (groups 0, 2, 3, ... of the
/// inputs). `update(r, t, values)` gets one element of each input group (values[0] = x,
/// values[1] = g, ...) and rewrites values[0] to x_new and values[2...] to the new states.
template <class Update>
Status runOptimizer(KernelContext& ctx, size_t per, Update update) {
  const Array* r_array = ctx.inputArray(0);
  const Array* t_array = ctx.inputArray(1);
  if (r_array == nullptr || t_array == nullptr || r_array->size() != 1 || t_array->size() != 1) {
    return ctx.fail("R and T must be scalars");
  }
  double r = elementAsDouble(*r_array, 0);
  int64_t t = t_array->type() == ElementType::kInt64
                  ? t_array->data<int64_t>()[0]
                  : static_cast<int64_t>(elementAsDouble(*t_array, 0));
  size_t rest = ctx.inputCount() - 2;
  if (ctx.inputCount() < 2 || rest == 0 || rest % per != 0) {
    return ctx.fail("the inputs after R and T must come in " + std::to_string(per) + " groups");
  }
  size_t n = rest / per;
  std::vector<double> values(per);
  for (size_t i = 0; i < n; ++i) {
    std::vector<const Array*> group(per);
    for (size_t k = 0; k < per; ++k) {
      group[k] = ctx.inputArray(2 + k * n + i);
      if (group[k] == nullptr)
        return ctx.fail("input " + std::to_string(2 + k * n + i) + " is missing");
      if (group[k]->shape() != group[0]->shape()) {
        return ctx.fail("tensor " + std::to_string(i) +
                        "'s gradient and states differ in shape from it");
      }
    }
    std::vector<Array> outs;
    for (size_t k = 0; k < per; ++k) {
      if (k != 1) outs.emplace_back(group[k]->type(), group[k]->shape());
    }
    for (size_t e = 0; e < group[0]->size(); ++e) {
      for (size_t k = 0; k < per; ++k) values[k] = elementAsDouble(*group[k], e);
      update(r, t, values);
      storeDouble(outs[0], e, values[0]);
      for (size_t k = 2; k < per; ++k) storeDouble(outs[k - 1], e, values[k]);
    }
    for (size_t k = 0; k < outs.size(); ++k) ctx.setOutput(k * n + i, std::move(outs[k]));
  }
  return Status::ok();
}

}  // namespace onyx::ops
