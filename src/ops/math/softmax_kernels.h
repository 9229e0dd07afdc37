// Internal: the kernels of Softmax, LogSoftmax and Hardmax.
//
// Before opset 13 these operators coerce the input to 2-D at `axis` ([prod(dims[:axis]),
// prod(dims[axis:])]) and work along the second dimension; from 13 they work along the one
// axis. Floating-point types only: FLOAT and DOUBLE natively, the narrow ones in FLOAT. Softmax
// and LogSoftmax of FLOAT along the innermost axis (the common case) take a path of their own
// that computes each exponential once, in FLOAT (vector_math's exp); the others compute in
// double.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ops/kernels.h"
#include "ops/math/vector_math.h"

namespace onyx::ops {

enum class SoftmaxKind { kSoftmax, kLogSoftmax, kHardmax };

/// The largest of `values[0, count)` (count > 0), ignoring NaN unless values[0] is NaN (a
/// NaN makes the whole softmax NaN through the sum anyway): eight interleaved maxima, so that
/// the compiler can vectorize the loop.
inline float lineMaximum(const float* __restrict values, size_t count) {
  constexpr size_t kLanes = 8;
  float lanes[kLanes];
  for (size_t j = 0; j < kLanes; ++j) lanes[j] = values[0];
  size_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) {
      lanes[j] = values[i + j] > lanes[j] ? values[i + j] : lanes[j];
    }
  }
  float top = lanes[0];
  for (size_t j = 1; j < kLanes; ++j) top = lanes[j] > top ? lanes[j] : top;
  for (; i < count; ++i) top = values[i] > top ? values[i] : top;
  return top;
}

/// The sum of `values[0, count)` in double, as eight interleaved partial sums added in a fixed
/// order: independent additions the compiler can vectorize, the same for every thread count.
inline double lineSum(const float* __restrict values, size_t count) {
  constexpr size_t kLanes = 8;
  double lanes[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) lanes[j] += static_cast<double>(values[i + j]);
  }
  double total = 0;
  for (size_t j = 0; j < kLanes; ++j) total += lanes[j];
  for (; i < count; ++i) total += static_cast<double>(values[i]);
  return total;
}

/// Softmax or LogSoftmax of one contiguous FLOAT line of `count` (> 0) elements: each
/// exponential computed once, in FLOAT, kept in `to` and then scaled; the sum in double.
template <SoftmaxKind K>
void floatSoftmaxLine(const float* __restrict from, float* __restrict to, size_t count) {
  const float top = lineMaximum(from, count);
  vector_math::expShiftedFloats(from, top, to, count);
  const double sum = lineSum(to, count);
  if constexpr (K == SoftmaxKind::kSoftmax) {
    const float total = static_cast<float>(sum);
    for (size_t i = 0; i < count; ++i) to[i] /= total;
  } else {
    const double log_sum = std::log(sum);
    for (size_t i = 0; i < count; ++i) {
      to[i] = static_cast<float>(static_cast<double>(from[i]) - static_cast<double>(top) - log_sum);
    }
  }
}

template <SoftmaxKind K>
Status runSoftmaxFamily(KernelContext& ctx, bool coerce_2d) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  size_t rank = x->rank();
  int64_t axis_value = ctx.intAttribute("axis").value_or(coerce_2d ? 1 : -1);
  size_t axis = 0;
  if (coerce_2d) {
    // The coerced form allows axis == rank (a second dimension of 1).
    int64_t r = static_cast<int64_t>(rank);
    if (axis_value < -r || axis_value > r) return ctx.fail("axis is out of range");
    axis = static_cast<size_t>(axis_value < 0 ? axis_value + r : axis_value);
  } else {
    std::optional<size_t> given = kernelAxis(axis_value, rank);
    if (!given) return ctx.fail("axis is out of range");
    axis = *given;
  }
  size_t outer = 1, n = 1, inner = 1;
  for (size_t i = 0; i < rank; ++i) {
    size_t dim = static_cast<size_t>(x->dim(i));
    if (i < axis) {
      outer *= dim;
    } else if (i == axis || coerce_2d) {
      n *= dim;
    } else {
      inner *= dim;
    }
  }
  Array wide = widenToFloat(*x);
  Array out(wide.type(), wide.shape());
  if (K != SoftmaxKind::kHardmax && inner == 1 && wide.type() == ElementType::kFloat) {
    const float* in = wide.data<float>();
    float* result = out.data<float>();
    if (n > 0) {
      parallelFor(ctx, outer, std::max<size_t>(1, 4096 / n), [&](size_t begin, size_t end) {
        for (size_t line = begin; line < end; ++line) {
          floatSoftmaxLine<K>(in + line * n, result + line * n, n);
        }
      });
    }
    ctx.setOutput(0, narrowFromFloat(out, x->type()));
    return Status::ok();
  }
  bool ok = dispatchFloat(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    T* result = out.data<T>();
    size_t lines = outer * inner;
    parallelFor(ctx, lines, std::max<size_t>(1, 4096 / std::max<size_t>(n, 1)),
                [&](size_t begin, size_t end) {
                  for (size_t line = begin; line < end; ++line) {
                    size_t start = (line / inner) * n * inner + line % inner;
                    const T* src = in + start;
                    T* dst = result + start;
                    if (n == 0) continue;
                    size_t best = 0;
                    double top = static_cast<double>(src[0]);
                    for (size_t i = 1; i < n && !std::isnan(top); ++i) {
                      double v = static_cast<double>(src[i * inner]);
                      if (v > top || std::isnan(v)) {
                        top = v;
                        best = i;
                      }
                    }
                    if constexpr (K == SoftmaxKind::kHardmax) {
                      for (size_t i = 0; i < n; ++i) dst[i * inner] = T(i == best ? 1 : 0);
                    } else {
                      double sum = 0;
                      for (size_t i = 0; i < n; ++i) {
                        sum += std::exp(static_cast<double>(src[i * inner]) - top);
                      }
                      if constexpr (K == SoftmaxKind::kSoftmax) {
                        for (size_t i = 0; i < n; ++i) {
                          dst[i * inner] = static_cast<T>(
                              std::exp(static_cast<double>(src[i * inner]) - top) / sum);
                        }
                      } else {
                        double log_sum = std::log(sum);
                        for (size_t i = 0; i < n; ++i) {
                          dst[i * inner] =
                              static_cast<T>(static_cast<double>(src[i * inner]) - top - log_sum);
                        }
                      }
                    }
                  }
                });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(out, x->type()));
  return Status::ok();
}

}  // namespace onyx::ops
