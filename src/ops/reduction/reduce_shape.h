// Internal: the output shapes of the reductions (ReduceSum, ReduceMean, ..., ArgMax, ArgMin).
//
// A reduction over `axes` keeps each reduced axis as 1 (keepdims = 1) or drops it; with no
// axes it reduces all of them, unless noop_with_empty_axes (axes as an input) makes it the
// identity.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "onyx/ops/inference_context.h"
#include "ops/shape_rules.h"

namespace onyx::ops {

/// Reductions with `axes` as an attribute (before version 18; ReduceSum before 13).
inline void inferReduceAxesAttribute(InferenceContext& ctx);
/// Reductions with `axes` as the optional input 1 and noop_with_empty_axes; the axes must be
/// known (a constant, or propagated) for the dims, else only the rank follows.
inline void inferReduceAxesInput(InferenceContext& ctx);
/// ArgMax and ArgMin: one `axis`, kept as 1 or dropped.
inline void inferArgReduce(InferenceContext& ctx);

// ---- definitions (header-only: every .cc under src/ops/<family>/ defines an operator) ----

namespace detail {

// Sets output 0 to `input` reduced over `axes` (empty: all axes); fails on an axis out of
// range.
inline void reduceOver(InferenceContext& ctx, const Dims& input, std::span<const int64_t> axes,
                       bool keep_dims) {
  std::vector<bool> reduced(input.size(), axes.empty());
  for (int64_t axis : axes) {
    std::optional<size_t> index = normalizeAxis(ctx, axis, input.size(), "axes value");
    if (!index) return;
    reduced[*index] = true;
  }
  Dims out;
  out.reserve(input.size());
  for (size_t i = 0; i < input.size(); ++i) {
    if (!reduced[i]) {
      out.push_back(input[i]);
    } else if (keep_dims) {
      out.push_back(DimValue::known(1));
    }
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace detail

inline void inferReduceAxesAttribute(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  bool keep_dims = ctx.intAttribute("keepdims").value_or(1) != 0;
  std::vector<int64_t> axes = ctx.intsAttribute("axes").value_or(std::vector<int64_t>{});
  detail::reduceOver(ctx, *input, axes, keep_dims);
}

inline void inferReduceAxesInput(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  bool keep_dims = ctx.intAttribute("keepdims").value_or(1) != 0;
  bool noop_when_empty = ctx.intAttribute("noop_with_empty_axes").value_or(0) != 0;
  std::vector<int64_t> axes;
  if (ctx.hasInput(1)) {
    const Dims* data = ctx.inputData(1);
    bool known = data != nullptr;
    if (known) {
      axes.reserve(data->size());
      for (DimValue axis : *data) {
        if (!axis.isKnown()) {
          known = false;
          break;
        }
        axes.push_back(axis.value());
      }
    }
    if (!known) {
      const Dims* axes_shape = ctx.inputShape(1);
      bool empty = axes_shape != nullptr && axes_shape->size() == 1 && (*axes_shape)[0].is(0);
      if (!empty) {
        // Which axes is unknown: with keepdims the rank stays (a dimension of 1 stays 1);
        // without, the number of axes gives the rank when there are no repeats to fear.
        if (keep_dims) {
          Dims out;
          out.reserve(input->size());
          for (DimValue dim : *input) out.push_back(dim.is(1) ? dim : ctx.dims().fresh());
          ctx.setOutputShape(0, std::move(out));
        }
        return;
      }
      axes.clear();
    }
  }
  if (axes.empty() && noop_when_empty) {
    ctx.setOutputShape(0, *input);
    return;
  }
  detail::reduceOver(ctx, *input, axes, keep_dims);
}

inline void inferArgReduce(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  bool keep_dims = ctx.intAttribute("keepdims").value_or(1) != 0;
  int64_t axis = ctx.intAttribute("axis").value_or(0);
  int64_t single[] = {axis};
  if (input->empty()) {
    ctx.fail("ArgMax and ArgMin need an input of rank 1 or more");
    return;
  }
  detail::reduceOver(ctx, *input, single, keep_dims);
}

}  // namespace onyx::ops
