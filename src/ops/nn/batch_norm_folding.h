// Internal: folding a per-channel affine map (a BatchNormalization in inference mode, an Add
// or a Mul by a constant per channel) into the weights and bias of the node before it. The
// evaluator's plan-time convolution chain and the `standard-fusions` pass both fold with
// these, so a folded Conv computes the same in both.
//
// A BatchNormalization in inference mode computes y = x * scale[c] + shift[c] per channel c,
// with scale = gamma / sqrt(var + epsilon) and shift = beta - mean * scale. A node whose
// output channel c is sum_k w[c, k] x[k] + b[c] then folds it as w' = w * scale[c] and
// b' = b * scale[c] + shift[c]. The arithmetic is in double, rounded once to the element type.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ir/node.h"

namespace onyx::ops::nn {

/// Whether `node` is a standard BatchNormalization that maps each channel affinely with
/// parameters that never change: five inputs, scale, B, mean and var all `constant`, only Y
/// asked for (no statistics output: training before version 14), training_mode absent or 0,
/// spatial absent or 1 (spatial = 0, before version 9, keeps statistics per position), and
/// no attribute referring to a calling function's.
bool isFoldableBatchNorm(const Node& node, const std::function<bool(const Value*)>& constant);

/// y = x * scale[c] + shift[c], per channel c.
struct ChannelAffine {
  std::vector<double> scale;
  std::vector<double> shift;
};

/// The affine map of a BatchNormalization in inference mode from its parameters (float or
/// double, all of `channels` elements); nullopt when they are not.
std::optional<ChannelAffine> batchNormAffine(const Array& gamma, const Array& beta,
                                             const Array& mean, const Array& variance,
                                             double epsilon, int64_t channels);

/// Where a tensor keeps its output channels: viewed row-major as [groups, outer, channels,
/// inner], element (g, o, c, i) belongs to output channel g * channels + c.
struct ChannelLayout {
  int64_t groups = 1;
  int64_t outer = 1;
  int64_t channels = 0;
  int64_t inner = 1;

  int64_t outputChannels() const { return groups * channels; }
  int64_t size() const { return groups * outer * channels * inner; }
};

/// Conv's weights (M, C/group, k...): the output channel is dim 0.
std::optional<ChannelLayout> convWeightsLayout(std::span<const int64_t> shape);
/// ConvTranspose's weights (C, M/group, k...): per group, the output channel is dim 1.
std::optional<ChannelLayout> convTransposeWeightsLayout(std::span<const int64_t> shape,
                                                        int64_t group);
/// Gemm's B: (K, N), or (N, K) when transposed; the output channel is N.
std::optional<ChannelLayout> gemmWeightsLayout(std::span<const int64_t> shape, bool transposed);
/// A bias (M) or a Gemm's (rows, M): the channel is the last dim.
ChannelLayout biasLayout(int64_t rows, int64_t channels);

/// `values` (float or double, laid out as `layout` says) with each element of channel c
/// mapped to v * scale[c] + shift[c] (shift empty: none), in double, rounded once to the
/// element type. Nullopt for another element type or a size that does not fit the layout.
std::optional<Array> mapChannels(const Array& values, const ChannelLayout& layout,
                                 std::span<const double> scale, std::span<const double> shift);
/// The same from bytes to bytes (raw little-endian elements of `type`, `layout.size()` of
/// them, any alignment), for callers that write straight into their own storage; false for
/// another element type or mismatched sizes.
bool mapChannelBytes(ElementType type, std::span<const std::byte> from, std::span<std::byte> to,
                     const ChannelLayout& layout, std::span<const double> scale,
                     std::span<const double> shift);
/// The same for a slice: `from` holds elements first, first + 1, ... of the tensor (any
/// whole number of them, within `layout.size()`); `to` may be `from`.
bool mapChannelRange(ElementType type, std::span<const std::byte> from, std::span<std::byte> to,
                     const ChannelLayout& layout, uint64_t first, std::span<const double> scale,
                     std::span<const double> shift);

/// One value per channel from a tensor of `channels` elements or of one, broadcast (any
/// real type); nullopt otherwise.
std::optional<std::vector<double>> perChannel(const Array& values, int64_t channels);

}  // namespace onyx::ops::nn
