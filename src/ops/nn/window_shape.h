// Internal: the sliding-window arithmetic that convolutions and poolings share (Conv,
// ConvInteger, QLinearConv, DeformConv, ConvTranspose, AveragePool, MaxPool, LpPool,
// MaxUnpool).
//
// An input is (N, C, D1, ..., Dn); the window attributes (kernel_shape, strides, dilations,
// pads, auto_pad, ceil_mode) have one value per spatial axis (pads two). Output dimensions
// are computed with SymbolicDims arithmetic, so a symbolic spatial dimension stays symbolic
// where the formula allows (stride 1, SAME padding that divides exactly).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/quote.h"
#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// A per-spatial-axis ints attribute (strides, dilations, pads, kernel_shape, ...): its
/// values when present and not empty, checked to number `count` and to be at least
/// `minimum`; `count` copies of `fallback` when absent. Fails the node and returns nullopt
/// when the attribute has the wrong length or a value below `minimum`.
inline std::optional<std::vector<int64_t>> spatialAttribute(InferenceContext& ctx,
                                                            std::string_view name, size_t count,
                                                            int64_t fallback, int64_t minimum);

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };
/// The node's auto_pad; fails the node and returns nullopt for an unknown value, or for
/// pads set beside an auto_pad other than NOTSET (the two cannot be used together; onnx's
/// convPoolShapeInference, onnx/defs/nn/defs.cc).
inline std::optional<AutoPad> autoPadOf(InferenceContext& ctx);

/// The spatial output dimensions of a window `kernel` sliding over `input` (N, C, D1..Dn),
/// reading strides, dilations (when `use_dilations`), pads, auto_pad and ceil_mode from the
/// node. nullopt after failing the node.
inline std::optional<Dims> slidingWindowDims(InferenceContext& ctx, const Dims& input,
                                             std::span<const int64_t> kernel, bool use_dilations);

/// Conv-like rules: output 0 is (N, M, spatial...) for data input `x` and weight input `w`
/// (M, C/group, k1..kn); the kernel comes from kernel_shape or the weight's shape.
inline void inferConvolution(InferenceContext& ctx, size_t x, size_t w);

/// Pooling rules with a kernel_shape attribute: every present output is (N, C, spatial...).
inline void inferPooling(InferenceContext& ctx, bool use_dilations);

/// Global poolings: output 0 is (N, C, 1, ..., 1).
inline void inferGlobalPooling(InferenceContext& ctx);

// ---- definitions (header-only: every .cc under src/ops/<family>/ defines an operator) ----

inline std::optional<std::vector<int64_t>> spatialAttribute(InferenceContext& ctx,
                                                            std::string_view name, size_t count,
                                                            int64_t fallback, int64_t minimum) {
  std::optional<std::vector<int64_t>> values = ctx.intsAttribute(name);
  if (!values || values->empty()) return std::vector<int64_t>(count, fallback);
  if (values->size() != count) {
    ctx.fail(std::string(name) + " has " + std::to_string(values->size()) + " values, expected " +
             std::to_string(count));
    return std::nullopt;
  }
  for (int64_t value : *values) {
    if (value < minimum) {
      ctx.fail(std::string(name) + " has the value " + std::to_string(value) +
               "; values must be at least " + std::to_string(minimum));
      return std::nullopt;
    }
  }
  return values;
}

inline std::optional<AutoPad> autoPadOf(InferenceContext& ctx) {
  std::string_view text = ctx.stringAttribute("auto_pad").value_or("NOTSET");
  if (text == "NOTSET" || text.empty()) return AutoPad::kNotSet;
  std::optional<AutoPad> auto_pad;
  if (text == "SAME_UPPER") auto_pad = AutoPad::kSameUpper;
  if (text == "SAME_LOWER") auto_pad = AutoPad::kSameLower;
  if (text == "VALID") auto_pad = AutoPad::kValid;
  if (!auto_pad) {
    ctx.fail("auto_pad " + quoted(text) + " is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
    return std::nullopt;
  }
  if (std::optional<std::vector<int64_t>> pads = ctx.intsAttribute("pads");
      pads && !pads->empty()) {
    ctx.fail("pads is set beside auto_pad " + quoted(text) + "; the two cannot be used together");
    return std::nullopt;
  }
  return auto_pad;
}

inline std::optional<Dims> slidingWindowDims(InferenceContext& ctx, const Dims& input,
                                             std::span<const int64_t> kernel, bool use_dilations) {
  size_t spatial = input.size() - 2;
  std::optional<std::vector<int64_t>> strides = spatialAttribute(ctx, "strides", spatial, 1, 1);
  if (!strides) return std::nullopt;
  std::optional<std::vector<int64_t>> dilations =
      use_dilations ? spatialAttribute(ctx, "dilations", spatial, 1, 1)
                    : std::vector<int64_t>(spatial, 1);
  if (!dilations) return std::nullopt;
  std::optional<std::vector<int64_t>> explicit_pads = ctx.intsAttribute("pads");
  bool has_pads = explicit_pads && !explicit_pads->empty();
  std::optional<std::vector<int64_t>> pads = spatialAttribute(ctx, "pads", 2 * spatial, 0, 0);
  if (!pads) return std::nullopt;
  std::optional<AutoPad> auto_pad = autoPadOf(ctx);
  if (!auto_pad) return std::nullopt;
  bool ceil_mode = ctx.intAttribute("ceil_mode").value_or(0) != 0;

  SymbolicDims& dims = ctx.dims();
  Dims out;
  out.reserve(spatial);
  for (size_t i = 0; i < spatial; ++i) {
    DimValue in = input[2 + i];
    int64_t stride = (*strides)[i];
    DimValue window =
        dims.add(dims.multiply(DimValue::known(kernel[i] - 1), DimValue::known((*dilations)[i])),
                 DimValue::known(1));
    DimValue pad_begin = DimValue::known((*pads)[i]);
    DimValue pad_end = DimValue::known((*pads)[spatial + i]);
    bool same = !has_pads && (*auto_pad == AutoPad::kSameUpper || *auto_pad == AutoPad::kSameLower);
    if (same) {
      if (!in.isKnown() || in.value() < 0 || !window.isKnown()) {
        // SAME pads so that the output is ceil(input / stride).
        out.push_back(dims.divideCeil(in, DimValue::known(stride)));
        continue;
      }
      int64_t residual = in.value() % stride;
      int64_t total = std::max<int64_t>(0, window.value() - (residual == 0 ? stride : residual));
      int64_t small = total / 2;
      pad_begin = DimValue::known(*auto_pad == AutoPad::kSameUpper ? small : total - small);
      pad_end = DimValue::known(*auto_pad == AutoPad::kSameUpper ? total - small : small);
    }
    DimValue numerator = dims.subtract(dims.add(dims.add(in, pad_begin), pad_end), window);
    if (ceil_mode) numerator = dims.add(numerator, DimValue::known(stride - 1));
    DimValue size =
        dims.add(dims.divideFloor(numerator, DimValue::known(stride)), DimValue::known(1));
    // A last window that would start inside the end padding is dropped (as PyTorch does).
    if (ceil_mode && size.isKnown() && in.isKnown() && pad_begin.isKnown()) {
      DimValue start = dims.multiply(DimValue::known(size.value() - 1), DimValue::known(stride));
      DimValue limit = dims.add(in, pad_begin);
      if (start.isKnown() && limit.isKnown() && start.value() >= limit.value()) {
        size = DimValue::known(size.value() - 1);
      }
    }
    if (size.isKnown() && size.value() < 0) {
      ctx.fail("spatial axis " + std::to_string(i) + " gets the negative size " +
               std::to_string(size.value()) + ": the window is larger than the padded input");
      return std::nullopt;
    }
    out.push_back(size);
  }
  return out;
}

inline void inferConvolution(InferenceContext& ctx, size_t x, size_t w) {
  const Dims* input = ctx.inputShape(x);
  if (input == nullptr) return;
  if (input->size() < 3) {
    ctx.fail("the input has rank " + std::to_string(input->size()) +
             "; a convolution needs (N, C, D1, ...)");
    return;
  }
  size_t spatial = input->size() - 2;
  const Dims* weight = ctx.inputShape(w);
  if (weight != nullptr && weight->size() != input->size()) {
    ctx.fail("the weight has rank " + std::to_string(weight->size()) + ", the input rank " +
             std::to_string(input->size()));
    return;
  }
  int64_t group = ctx.intAttribute("group").value_or(1);
  if (group <= 0) {
    ctx.fail("group is " + std::to_string(group) + "; it must be positive");
    return;
  }
  if (weight != nullptr && (*input)[1].isKnown() && (*weight)[1].isKnown()) {
    int64_t channels = (*input)[1].value();
    int64_t per_group = (*weight)[1].value();
    int64_t expected = 0;
    if (!__builtin_mul_overflow(per_group, group, &expected) && expected != channels) {
      ctx.fail("the input has " + std::to_string(channels) + " channels; the weight expects " +
               std::to_string(per_group) + " per group times " + std::to_string(group) + " groups");
      return;
    }
  }
  Dims out;
  out.reserve(input->size());
  out.push_back((*input)[0]);
  out.push_back(weight != nullptr ? (*weight)[0] : ctx.dims().fresh());

  std::optional<std::vector<int64_t>> kernel = ctx.intsAttribute("kernel_shape");
  if (kernel && !kernel->empty()) {
    kernel = spatialAttribute(ctx, "kernel_shape", spatial, 1, 1);
    if (!kernel) return;
  } else {
    kernel.reset();
    if (weight != nullptr) {
      std::vector<int64_t> from_weight;
      for (size_t i = 2; i < weight->size() && (*weight)[i].isKnown(); ++i) {
        from_weight.push_back((*weight)[i].value());
      }
      if (from_weight.size() == spatial) kernel = std::move(from_weight);
    }
  }
  if (!kernel) {
    for (size_t i = 0; i < spatial; ++i) out.push_back(ctx.dims().fresh());
    ctx.setOutputShape(0, std::move(out));
    return;
  }
  for (int64_t k : *kernel) {
    if (k <= 0) {
      ctx.fail("the kernel has the size " + std::to_string(k) + "; sizes must be positive");
      return;
    }
  }
  std::optional<Dims> sizes = slidingWindowDims(ctx, *input, *kernel, true);
  if (!sizes) return;
  out.insert(out.end(), sizes->begin(), sizes->end());
  ctx.setOutputShape(0, std::move(out));
}

inline void inferPooling(InferenceContext& ctx, bool use_dilations) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() < 3) {
    ctx.fail("the input has rank " + std::to_string(input->size()) +
             "; a pooling needs (N, C, D1, ...)");
    return;
  }
  std::optional<std::vector<int64_t>> present = ctx.intsAttribute("kernel_shape");
  if (!present || present->empty()) return;  // required: the checker reports it
  std::optional<std::vector<int64_t>> kernel =
      spatialAttribute(ctx, "kernel_shape", input->size() - 2, 1, 1);
  if (!kernel) return;
  std::optional<Dims> sizes = slidingWindowDims(ctx, *input, *kernel, use_dilations);
  if (!sizes) return;
  Dims out;
  out.reserve(input->size());
  out.push_back((*input)[0]);
  out.push_back((*input)[1]);
  out.insert(out.end(), sizes->begin(), sizes->end());
  for (size_t i = 1; i < ctx.outputCount(); ++i) {
    if (ctx.hasOutput(i)) ctx.setOutputShape(i, out);
  }
  ctx.setOutputShape(0, std::move(out));
}

inline void inferGlobalPooling(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() < 2) {
    ctx.fail("the input has rank " + std::to_string(input->size()) +
             "; a global pooling needs (N, C, ...)");
    return;
  }
  Dims out(input->size(), DimValue::known(1));
  out[0] = (*input)[0];
  out[1] = (*input)[1];
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace onyx::ops
