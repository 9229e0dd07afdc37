// Internal: the kernels of CumSum, CumProd and TopK.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/kernels.h"
#include "ops/math/matmul_kernels.h"

namespace onyx::ops {

/// CumSum (kProduct false) or CumProd along the axis given by input 1 (a scalar or a
/// one-element tensor), with `exclusive` (each output leaves out its own element) and
/// `reverse` (accumulate from the end). Floating-point values accumulate in double, integers
/// wrap.
template <bool kProduct>
Status runCumulative(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* axis_array = ctx.inputArray(1);
  if (x == nullptr || axis_array == nullptr) return ctx.fail("needs x and axis tensors");
  std::optional<std::vector<int64_t>> axis_values = integersOf(*axis_array);
  if (!axis_values || axis_values->size() != 1 || axis_array->rank() > 1) {
    return ctx.fail("axis must be an integer scalar");
  }
  if (x->rank() == 0) return ctx.fail("x must have rank 1 or more");
  std::optional<size_t> axis = kernelAxis((*axis_values)[0], x->rank());
  if (!axis) return ctx.fail("axis is out of range");
  bool exclusive = ctx.intAttribute("exclusive").value_or(0) != 0;
  bool reverse = ctx.intAttribute("reverse").value_or(0) != 0;
  size_t n = static_cast<size_t>(x->dim(*axis));
  size_t inner = stridesOf(x->shape())[*axis];
  size_t outer = n * inner == 0 ? 0 : x->size() / (n * inner);
  Array wide = widenToFloat(*x);
  Array out(wide.type(), wide.shape());
  bool ok = dispatchMatmul(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    T* result = out.data<T>();
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, T>;
    parallelFor(ctx, outer * inner, std::max<size_t>(1, 4096 / std::max<size_t>(n, 1)),
                [&](size_t begin, size_t end) {
                  for (size_t line = begin; line < end; ++line) {
                    size_t start = (line / inner) * n * inner + line % inner;
                    Acc acc = kProduct ? Acc(1) : Acc(0);
                    for (size_t step = 0; step < n; ++step) {
                      size_t i = start + (reverse ? n - 1 - step : step) * inner;
                      Acc value = static_cast<Acc>(in[i]);
                      Acc next;
                      if constexpr (kProduct) {
                        next = mulAdd(Acc(0), acc, value);
                      } else {
                        next = mulAdd(acc, value, Acc(1));
                      }
                      result[i] = static_cast<T>(exclusive ? acc : next);
                      acc = next;
                    }
                  }
                });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(out, x->type()));
  return Status::ok();
}

/// TopK: the k largest (or smallest) elements along `axis` and their indices, sorted; equal
/// values keep the lower index first; NaN counts as larger than every number.
inline Status runTopKKernel(KernelContext& ctx, int64_t k) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  if (x->rank() == 0) return ctx.fail("X must have rank 1 or more");
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(-1), x->rank());
  if (!axis) return ctx.fail("axis is out of range");
  bool largest = ctx.intAttribute("largest").value_or(1) != 0;
  size_t n = static_cast<size_t>(x->dim(*axis));
  if (k < 0 || static_cast<uint64_t>(k) > n) {
    return ctx.fail("k = " + std::to_string(k) + " is not in [0, " + std::to_string(n) + "]");
  }
  size_t count = static_cast<size_t>(k);
  std::vector<int64_t> shape = x->shape();
  shape[*axis] = k;
  size_t inner = stridesOf(x->shape())[*axis];
  size_t outer = n * inner == 0 ? 0 : x->size() / (n * inner);
  Array wide = widenToFloat(*x);
  Array values(wide.type(), shape);
  Array indices(ElementType::kInt64, shape);
  int64_t* index_out = indices.data<int64_t>();
  bool ok = dispatchMatmul(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    T* value_out = values.data<T>();
    parallelFor(ctx, outer * inner, std::max<size_t>(1, 1024 / std::max<size_t>(n, 1)),
                [&](size_t begin, size_t end) {
                  std::vector<size_t> order(n);
                  for (size_t line = begin; line < end; ++line) {
                    size_t start = (line / inner) * n * inner + line % inner;
                    size_t out_start = (line / inner) * count * inner + line % inner;
                    const T* src = in + start;
                    std::iota(order.begin(), order.end(), size_t{0});
                    auto before = [&](size_t a, size_t b) {
                      T va = src[a * inner], vb = src[b * inner];
                      if constexpr (std::is_floating_point_v<T>) {
                        bool na = std::isnan(va), nb = std::isnan(vb);
                        if (na || nb) {
                          if (na && nb) return a < b;
                          return largest ? na : nb;
                        }
                      }
                      if (va != vb) return largest ? va > vb : va < vb;
                      return a < b;
                    };
                    std::partial_sort(order.begin(),
                                      order.begin() + static_cast<std::ptrdiff_t>(count),
                                      order.end(), before);
                    for (size_t i = 0; i < count; ++i) {
                      value_out[out_start + i * inner] = src[order[i] * inner];
                      index_out[out_start + i * inner] = static_cast<int64_t>(order[i]);
                    }
                  }
                });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(values, x->type()));
  ctx.setOutput(1, std::move(indices));
  return Status::ok();
}

/// TopK with k from the attribute (version 1) or input 1 (a one-element INT64 tensor).
inline Status runTopK(KernelContext& ctx) {
  if (ctx.hasInput(1)) {
    const Array* k_array = ctx.inputArray(1);
    std::optional<std::vector<int64_t>> k =
        k_array != nullptr ? integersOf(*k_array) : std::nullopt;
    if (!k || k->size() != 1) return ctx.fail("K must be a one-element integer tensor");
    return runTopKKernel(ctx, (*k)[0]);
  }
  std::optional<int64_t> k = ctx.intAttribute("k");
  if (!k) return ctx.fail("needs k");
  return runTopKKernel(ctx, *k);
}

}  // namespace onyx::ops
