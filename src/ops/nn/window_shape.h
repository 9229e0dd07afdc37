// Internal: the sliding-window arithmetic that convolutions and poolings share (Conv,
// ConvInteger, QLinearConv, DeformConv, ConvTranspose, AveragePool, MaxPool, LpPool,
// MaxUnpool).
//
// An input is (N, C, D1, ..., Dn); the window attributes (kernel_shape, strides, dilations,
// pads, auto_pad, ceil_mode) have one value per spatial axis (pads two). Output dimensions
// are computed with SymbolicDims arithmetic, so a symbolic spatial dimension stays symbolic
// where the formula allows (stride 1, SAME padding that divides exactly).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// A per-spatial-axis ints attribute (strides, dilations, pads, kernel_shape, ...): its
/// values when present and not empty, checked to number `count` and to be at least
/// `minimum`; `count` copies of `fallback` when absent. Fails the node and returns nullopt
/// when the attribute has the wrong length or a value below `minimum`.
std::optional<std::vector<int64_t>> spatialAttribute(InferenceContext& ctx, std::string_view name,
                                                     size_t count, int64_t fallback,
                                                     int64_t minimum);

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };
/// The node's auto_pad; fails the node and returns nullopt for an unknown value.
std::optional<AutoPad> autoPadOf(InferenceContext& ctx);

/// The spatial output dimensions of a window `kernel` sliding over `input` (N, C, D1..Dn),
/// reading strides, dilations (when `use_dilations`), pads, auto_pad and ceil_mode from the
/// node. nullopt after failing the node.
std::optional<Dims> slidingWindowDims(InferenceContext& ctx, const Dims& input,
                                      std::span<const int64_t> kernel, bool use_dilations);

/// Conv-like rules: output 0 is (N, M, spatial...) for data input `x` and weight input `w`
/// (M, C/group, k1..kn); the kernel comes from kernel_shape or the weight's shape.
void inferConvolution(InferenceContext& ctx, size_t x, size_t w);

/// Pooling rules with a kernel_shape attribute: every present output is (N, C, spatial...).
void inferPooling(InferenceContext& ctx, bool use_dilations);

/// Global poolings: output 0 is (N, C, 1, ..., 1).
void inferGlobalPooling(InferenceContext& ctx);

}  // namespace onyx::ops
