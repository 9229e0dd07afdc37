// Internal: the kernels of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
//
// Input [N, C, d1, ...] and target [N, d1, ...]: the loss at (n, d) is -weight[t] *
// input[n, t, d] with t = target[n, d] (SoftmaxCrossEntropyLoss first takes the log-softmax
// over C); a target equal to ignore_index contributes 0 and weighs 0. "mean" divides the
// sum by the sum of the weights taken, "sum" sums, "none" keeps the target's shape.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/kernels.h"

namespace onyx::ops {

inline Status runLossKernel(KernelContext& ctx, bool softmax_first) {
  const Array* x = ctx.inputArray(0);
  const Array* target_array = ctx.inputArray(1);
  if (x == nullptr || target_array == nullptr) return ctx.fail("needs input and target tensors");
  if (x->rank() < 2) return ctx.fail("the input needs rank 2 or more ([N, C, ...])");
  if (target_array->rank() != x->rank() - 1) return ctx.fail("the target needs rank one less");
  if (target_array->dim(0) != x->dim(0)) return ctx.fail("the target's N differs");
  for (size_t i = 1; i < target_array->rank(); ++i) {
    if (target_array->dim(i) != x->dim(i + 1)) return ctx.fail("the target's dims differ");
  }
  std::optional<std::vector<int64_t>> targets = integersOf(*target_array);
  if (!targets) return ctx.fail("the target must be an integer tensor");
  size_t n = static_cast<size_t>(x->dim(0));
  size_t classes = static_cast<size_t>(x->dim(1));
  size_t inner = x->size() / std::max<size_t>(1, n * classes);
  if (n * classes == 0) inner = targets->size() / std::max<size_t>(1, n);
  std::string_view reduction = ctx.stringAttribute("reduction").value_or("mean");
  if (reduction != "mean" && reduction != "sum" && reduction != "none") {
    return ctx.fail("reduction must be mean, sum or none");
  }
  std::optional<int64_t> ignore_index = ctx.intAttribute("ignore_index");
  const Array* weight_array = ctx.inputArray(2);
  if (weight_array != nullptr) {
    if (weight_array->rank() != 1 || weight_array->dim(0) != x->dim(1)) {
      return ctx.fail("weights must have shape [C]");
    }
    if (weight_array->type() != x->type()) return ctx.fail("weights of another element type");
  }
  Array wide = widenToFloat(*x);
  Array weights_wide = weight_array != nullptr ? widenToFloat(*weight_array) : Array();
  ElementType computed = wide.type();
  Array log_prob(computed, x->shape());
  Array loss(computed, reduction == "none" ? target_array->shape() : std::vector<int64_t>{});
  std::string error;
  bool ok = dispatchFloat(computed, [&]<class T>() {
    const T* in = wide.data<T>();
    if (softmax_first) {
      T* lp = log_prob.data<T>();
      for (size_t b = 0; b < n; ++b) {
        for (size_t d = 0; d < inner; ++d) {
          const T* src = in + b * classes * inner + d;
          T* dst = lp + b * classes * inner + d;
          double top = -INFINITY;
          for (size_t c = 0; c < classes; ++c) top = std::max(top, double(src[c * inner]));
          double sum = 0;
          for (size_t c = 0; c < classes; ++c) sum += std::exp(double(src[c * inner]) - top);
          double log_sum = std::log(sum);
          for (size_t c = 0; c < classes; ++c) {
            dst[c * inner] = static_cast<T>(double(src[c * inner]) - top - log_sum);
          }
        }
      }
      in = lp;
    }
    const T* w = weight_array != nullptr ? weights_wide.data<T>() : nullptr;
    T* out = loss.data<T>();
    double total = 0, weight_total = 0;
    for (size_t b = 0; b < n && error.empty(); ++b) {
      for (size_t d = 0; d < inner; ++d) {
        size_t at = b * inner + d;
        int64_t t = (*targets)[at];
        double value = 0, weight = 0;
        if (!ignore_index || t != *ignore_index) {
          if (t < 0 || static_cast<uint64_t>(t) >= classes) {
            error = "target " + std::to_string(t) + " is out of range [0, " +
                    std::to_string(classes) + ")";
            break;
          }
          weight = w != nullptr ? double(w[t]) : 1.0;
          value = -double(in[b * classes * inner + static_cast<size_t>(t) * inner + d]) * weight;
        }
        if (reduction == "none") out[at] = static_cast<T>(value);
        total += value;
        weight_total += weight;
      }
    }
    if (reduction == "sum") out[0] = static_cast<T>(total);
    if (reduction == "mean") out[0] = static_cast<T>(total / weight_total);
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(x->type())));
  if (!error.empty()) return ctx.fail(error);
  ctx.setOutput(0, narrowFromFloat(loss, x->type()));
  if (softmax_first && ctx.hasOutput(1)) ctx.setOutput(1, narrowFromFloat(log_prob, x->type()));
  return Status::ok();
}

}  // namespace onyx::ops
