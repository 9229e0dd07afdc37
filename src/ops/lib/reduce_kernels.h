// Internal: the reductions' kernels (ReduceSum, ReduceMean, ..., ArgMax, ArgMin).
//
// A reduction over some axes computes each output element from the input elements that
// share its kept coordinates, always in row-major order of the reduced coordinates, so the
// result does not depend on the thread count (threads split output elements, never one
// accumulation). Floating-point types accumulate in double; the narrow ones are widened to
// FLOAT first and rounded back. Integer types wrap as numpy's do (the arithmetic is done
// unsigned, then truncated to the type).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/kernels.h"

namespace onyx::ops {

enum class ReduceKind { kSum, kMean, kProd, kMax, kMin, kL1, kL2, kSumSquare, kLogSum, kLogSumExp };

/// Where an output element's inputs are: output `o` reduces the input elements at
/// bases[o] + offsets[r] for every r, in order.
struct ReducePlan {
  std::vector<int64_t> out_shape;
  std::vector<size_t> bases;
  std::vector<size_t> offsets;
};

namespace detail {

// The offsets of every coordinate over `dims` (with `strides`), row-major.
inline std::vector<size_t> odometerOffsets(const std::vector<int64_t>& dims,
                                           const std::vector<size_t>& strides) {
  size_t count = 1;
  for (int64_t dim : dims) count *= static_cast<size_t>(dim);
  std::vector<size_t> offsets(count);
  if (count == 0) return offsets;
  std::vector<int64_t> index(dims.size(), 0);
  size_t offset = 0;
  for (size_t i = 0; i < count; ++i) {
    offsets[i] = offset;
    for (size_t d = dims.size(); d-- > 0;) {
      if (++index[d] < dims[d]) {
        offset += strides[d];
        break;
      }
      offset -= strides[d] * static_cast<size_t>(dims[d] - 1);
      index[d] = 0;
    }
  }
  return offsets;
}

}  // namespace detail

/// The plan for reducing `shape` over the axes flagged in `reduced`.
inline ReducePlan planReduce(const std::vector<int64_t>& shape, const std::vector<bool>& reduced,
                             bool keep_dims) {
  ReducePlan plan;
  std::vector<size_t> strides = stridesOf(shape);
  std::vector<int64_t> kept_dims, reduced_dims;
  std::vector<size_t> kept_strides, reduced_strides;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (reduced[i]) {
      reduced_dims.push_back(shape[i]);
      reduced_strides.push_back(strides[i]);
      if (keep_dims) plan.out_shape.push_back(1);
    } else {
      kept_dims.push_back(shape[i]);
      kept_strides.push_back(strides[i]);
      plan.out_shape.push_back(shape[i]);
    }
  }
  plan.bases = detail::odometerOffsets(kept_dims, kept_strides);
  plan.offsets = detail::odometerOffsets(reduced_dims, reduced_strides);
  return plan;
}

/// Reads the axes (input 1 when given, else the `axes` attribute) and plans the reduction of
/// `data`; fails on an axis out of range or repeated.
inline Status planReduceAxes(KernelContext& ctx, const Array& data, ReducePlan& plan) {
  std::vector<int64_t> axes;
  if (ctx.hasInput(1)) {
    const Array* given = ctx.inputArray(1);
    std::optional<std::vector<int64_t>> values =
        given != nullptr ? integersOf(*given) : std::nullopt;
    if (!values) return ctx.fail("axes must be an integer tensor");
    axes = std::move(*values);
  } else {
    axes = ctx.intsAttribute("axes").value_or(std::vector<int64_t>{});
  }
  size_t rank = data.rank();
  bool noop = ctx.intAttribute("noop_with_empty_axes").value_or(0) != 0;
  std::vector<bool> reduced(rank, axes.empty() && !noop);
  for (int64_t axis : axes) {
    std::optional<size_t> index = kernelAxis(axis, rank);
    if (!index) {
      return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                      std::to_string(rank));
    }
    if (reduced[*index]) return ctx.fail("axis " + std::to_string(axis) + " is repeated");
    reduced[*index] = true;
  }
  bool keep_dims = ctx.intAttribute("keepdims").value_or(1) != 0;
  plan = planReduce(data.shape(), reduced, keep_dims);
  return Status::ok();
}

namespace detail {

// One output element of a floating-point reduction (T is float or double).
template <ReduceKind K, class T>
double reduceFloat(const T* in, const std::vector<size_t>& offsets) {
  size_t count = offsets.size();
  if constexpr (K == ReduceKind::kMax || K == ReduceKind::kMin) {
    double acc = K == ReduceKind::kMax ? -std::numeric_limits<double>::infinity()
                                       : std::numeric_limits<double>::infinity();
    for (size_t off : offsets) {
      double x = static_cast<double>(in[off]);
      if (std::isnan(x)) return x;
      if (K == ReduceKind::kMax ? x > acc : x < acc) acc = x;
    }
    return acc;
  } else if constexpr (K == ReduceKind::kLogSumExp) {
    double top = -std::numeric_limits<double>::infinity();
    for (size_t off : offsets) {
      double x = static_cast<double>(in[off]);
      if (std::isfinite(x) && x > top) top = x;
    }
    if (!std::isfinite(top)) top = 0;
    double sum = 0;
    for (size_t off : offsets) sum += std::exp(static_cast<double>(in[off]) - top);
    return std::log(sum) + top;
  } else if constexpr (K == ReduceKind::kProd) {
    double acc = 1;
    for (size_t off : offsets) acc *= static_cast<double>(in[off]);
    return acc;
  } else {
    double acc = 0;
    for (size_t off : offsets) {
      double x = static_cast<double>(in[off]);
      if constexpr (K == ReduceKind::kL1) {
        acc += std::fabs(x);
      } else if constexpr (K == ReduceKind::kL2 || K == ReduceKind::kSumSquare) {
        acc += x * x;
      } else {
        acc += x;
      }
    }
    if constexpr (K == ReduceKind::kMean) return acc / static_cast<double>(count);
    if constexpr (K == ReduceKind::kL2) return std::sqrt(acc);
    if constexpr (K == ReduceKind::kLogSum) return std::log(acc);
    return acc;
  }
}

// A value of double `v` as integer type T: truncated toward zero, clamped, NaN as 0.
template <class T>
T integerFromDouble(double v) {
  if (std::isnan(v)) return T(0);
  if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) {
    return std::numeric_limits<T>::lowest();
  }
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) {
    return std::numeric_limits<T>::max();
  }
  return static_cast<T>(v);
}

// One output element of an integer reduction (T an integer type, or bool for max and min).
template <ReduceKind K, class T>
T reduceInteger(const T* in, const std::vector<size_t>& offsets) {
  if constexpr (K == ReduceKind::kMax || K == ReduceKind::kMin) {
    T acc =
        K == ReduceKind::kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    for (size_t off : offsets) {
      T x = in[off];
      if (K == ReduceKind::kMax ? x > acc : x < acc) acc = x;
    }
    return acc;
  } else if constexpr (std::is_same_v<T, bool>) {
    return false;  // not reached: bool reduces only with max and min
  } else {
    using U = std::make_unsigned_t<T>;
    using Wide = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
    if constexpr (K == ReduceKind::kLogSumExp) {
      double top = -std::numeric_limits<double>::infinity();
      for (size_t off : offsets) top = std::max(top, static_cast<double>(in[off]));
      if (!std::isfinite(top)) top = 0;
      double sum = 0;
      for (size_t off : offsets) sum += std::exp(static_cast<double>(in[off]) - top);
      return integerFromDouble<T>(std::log(sum) + top);
    } else if constexpr (K == ReduceKind::kProd) {
      Wide acc = 1;
      for (size_t off : offsets) acc = static_cast<Wide>(acc * static_cast<Wide>(in[off]));
      return static_cast<T>(static_cast<U>(acc));
    } else {
      Wide acc = 0;
      for (size_t off : offsets) {
        T x = in[off];
        Wide w = static_cast<Wide>(static_cast<U>(x));
        if constexpr (K == ReduceKind::kL1) {
          if constexpr (std::is_signed_v<T>) {
            if (x < 0) w = static_cast<Wide>(static_cast<U>(U(0) - static_cast<U>(x)));
          }
          acc = static_cast<Wide>(acc + w);
        } else if constexpr (K == ReduceKind::kL2 || K == ReduceKind::kSumSquare) {
          acc = static_cast<Wide>(acc + static_cast<Wide>(static_cast<U>(w * w)));
        } else {
          acc = static_cast<Wide>(acc + w);
        }
      }
      T sum = static_cast<T>(static_cast<U>(acc));
      if constexpr (K == ReduceKind::kMean) {
        if (offsets.empty()) return T(0);
        return integerFromDouble<T>(static_cast<double>(sum) / static_cast<double>(offsets.size()));
      }
      if constexpr (K == ReduceKind::kL2) {
        return integerFromDouble<T>(std::sqrt(static_cast<double>(sum)));
      }
      if constexpr (K == ReduceKind::kLogSum) {
        return integerFromDouble<T>(std::log(static_cast<double>(sum)));
      }
      return sum;
    }
  }
}

}  // namespace detail

/// The kernel of a reduction: ReduceSum, ReduceMean, ... (axes from the attribute or input 1,
/// keepdims, noop_with_empty_axes). Reducing over no axes (noop with empty axes) applies the
/// per-element part alone, as onnx's reference does (ReduceSumSquare squares).
template <ReduceKind K>
Status runReduction(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  ReducePlan plan;
  ONYX_RETURN_IF_ERROR(planReduceAxes(ctx, *data, plan));
  ElementType type = data->type();
  bool narrow = isNarrowFloat(type);
  Array wide = narrow ? widenToFloat(*data) : *data;
  Result<Array> made = Array::allocate(wide.type(), plan.out_shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  size_t grain = std::max<size_t>(1, 16384 / std::max<size_t>(1, plan.offsets.size()));
  bool ok = true;
  auto run = [&]<class T>() {
    const T* in = wide.data<T>();
    T* result = out.data<T>();
    parallelFor(ctx, plan.bases.size(), grain, [&](size_t begin, size_t end) {
      for (size_t o = begin; o < end; ++o) {
        const T* base = in + plan.bases[o];
        if constexpr (std::is_floating_point_v<T>) {
          result[o] = static_cast<T>(detail::reduceFloat<K>(base, plan.offsets));
        } else {
          result[o] = detail::reduceInteger<K>(base, plan.offsets);
        }
      }
    });
  };
  if (type == ElementType::kBool) {
    if (K != ReduceKind::kMax && K != ReduceKind::kMin)
      ok = false;
    else
      run.template operator()<bool>();
  } else {
    ok = dispatchNative(wide.type(), run);
  }
  if (!ok) {
    return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(type)));
  }
  ctx.setOutput(0, narrow ? narrowFromFloat(out, type) : std::move(out));
  return Status::ok();
}

/// ArgMax (largest) or ArgMin: the index along `axis` of the first extreme element (the last
/// with select_last_index); NaN counts as the extreme, as numpy's argmax does.
template <bool kLargest>
Status runArgReduction(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  if (data->rank() == 0) return ctx.fail("needs an input of rank 1 or more");
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(0), data->rank());
  if (!axis) return ctx.fail("axis is out of range");
  if (data->dim(*axis) == 0) return ctx.fail("cannot take the index of an empty axis");
  bool keep_dims = ctx.intAttribute("keepdims").value_or(1) != 0;
  bool last = ctx.intAttribute("select_last_index").value_or(0) != 0;
  std::vector<bool> reduced(data->rank(), false);
  reduced[*axis] = true;
  ReducePlan plan = planReduce(data->shape(), reduced, keep_dims);
  Array wide = widenToFloat(*data);
  Result<Array> made = Array::allocate(ElementType::kInt64, plan.out_shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  int64_t* result = out.data<int64_t>();
  size_t n = plan.offsets.size();
  bool ok = dispatchNative(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    parallelFor(ctx, plan.bases.size(), 1024, [&](size_t begin, size_t end) {
      for (size_t o = begin; o < end; ++o) {
        const T* base = in + plan.bases[o];
        size_t best = last ? n - 1 : 0;
        for (size_t step = 1; step < n; ++step) {
          T current = base[plan.offsets[best]];
          if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(current)) break;
          }
          size_t i = last ? n - 1 - step : step;
          T x = base[plan.offsets[i]];
          bool better = kLargest ? x > current : x < current;
          if constexpr (std::is_floating_point_v<T>) better = better || std::isnan(x);
          if (better) best = i;
        }
        result[o] = static_cast<int64_t>(best);
      }
    });
  });
  if (!ok) {
    return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(data->type())));
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace onyx::ops
