// Internal: folding a per-channel affine map y' = y * scale[c] + shift[c] into the weights
// and bias of the Conv, ConvTranspose or Gemm that computes y, for the fusion rules of
// `standard-fusions` (fusion_rules.h). The arithmetic is ops/nn/batch_norm_folding.h's,
// shared with the evaluator.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "onyx/passes/pattern.h"
#include "ops/nn/batch_norm_folding.h"

namespace onyx::passes_internal {

/// The operators whose output channels fold a per-channel map: Conv, ConvTranspose, Gemm.
inline constexpr std::string_view kWeightedOperators[] = {"Conv", "ConvTranspose", "Gemm"};

/// A pattern node of `op_type` (one of kWeightedOperators) reading x, weights and an
/// optional bias, any attributes.
PatternNode weightedNode(Pattern& pattern, std::string_view op_type);

/// What a weighted node's output channels are: how many, and the rank of its output.
struct Channels {
  int64_t count = 0;
  size_t output_rank = 0;
};
/// Those of `node` reading `weights` (its operator and attributes say how to read their
/// shape; a MatMul's 2-D B reads as a Gemm's without transB); null when the weights' shape
/// (constant or inferred) does not say.
std::optional<Channels> channelsOf(const Node& node, const Value* weights,
                                   const MatchContext& context);

/// Whether `constant` (a shape) broadcasts against an output of `channels` along axis 1 only:
/// no more dims than the output, each 1 but the one aligned with axis 1 (1 or the count).
bool broadcastsPerChannel(std::span<const int64_t> constant, const Channels& channels);

/// The weights and bias a weighted node reads.
struct WeightedInputs {
  Value* weights = nullptr;
  Value* bias = nullptr;  // null: none
};

/// The weights and bias with which `node`, reading `inputs`, computes y * scale + shift per
/// output channel (scale empty: 1), with a Gemm's beta taken into the bias (so it must
/// become 1): new constants, never the old tensors changed (other nodes may read them).
/// Null when it cannot: weights or bias not constant where needed, an element type other
/// than float and double, shapes that do not fit.
std::optional<WeightedInputs> foldedInputs(const Node& node, WeightedInputs inputs,
                                           RewriteBuilder& builder, const MatchContext& context,
                                           std::span<const double> scale,
                                           std::span<const double> shift);

/// The same, recorded as a change of `node`, a matched node of the graph: false, with
/// nothing recorded, when it cannot.
bool foldChannels(Node& node, RewriteBuilder& builder, const MatchContext& context,
                  std::span<const double> scale, std::span<const double> shift);

}  // namespace onyx::passes_internal
