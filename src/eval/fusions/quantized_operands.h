// Internal to the evaluator: what the QDQ fusions (DequantizeLinear -> Conv / MatMul ->
// QuantizeLinear as one int8 operation, qdq_convolution.cc, qdq_matmul.cc) read
// of the QuantizeLinear and DequantizeLinear nodes around the product.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eval/fusions/fusion_pattern.h"
#include "onyx/core/array.h"
#include "onyx/ir/node.h"

namespace onyx::eval_internal {

/// The QuantizeLinear or DequantizeLinear of the default domain that makes `value`, when it
/// is not in a group yet and its scale and zero point are the same on every run (and its
/// quantized operand too, for a DequantizeLinear when `operand_constant`); else null. Block
/// quantization (opset 21's block_size) and QuantizeLinear's output_dtype without a zero
/// point are left to the nodes.
const Node* quantizationNode(const Value* value, std::string_view op_type, const FusionGraph& graph,
                             bool operand_constant = false);

/// The node of the default domain, of type `op_type`, that alone reads `value`, not yet in a
/// group, with one output; else null: the next member of a group being matched.
const Node* soleReaderOf(const Value* value, std::string_view op_type, const FusionGraph& graph);

/// Puts `dequantize` (or nothing, when null) into `match`: as a member when `reader` alone
/// reads its output; else it stays out, run for its other readers, and the step reads its
/// inputs (FusionMatch::reads).
void takeDequantize(const Node* dequantize, const Node& reader, const FusionGraph& graph,
                    FusionMatch& match);

/// What follows a QDQ group's product: an optional Relu (when `relu` allows it) and the
/// QuantizeLinear that ends the group, each the sole reader of what comes before it.
struct QuantizedOutput {
  const Node* relu = nullptr;
  const Node* quantize = nullptr;
};
std::optional<QuantizedOutput> quantizedOutput(const Node& anchor, const FusionGraph& graph,
                                               bool relu);

/// The group's members from the anchor on: the anchor, its Relu, its QuantizeLinear.
void takeOutput(const Node& anchor, const QuantizedOutput& output, FusionMatch& match);

/// One scale and zero point for the whole tensor, and the quantized type (UINT8 or INT8).
struct TensorQuantization {
  float scale = 1;
  int32_t zero = 0;
  ElementType type = ElementType::kUint8;
};

/// What `node` (a QuantizeLinear or DequantizeLinear from quantizationNode) quantizes by,
/// when it has one float scale and a zero point of UINT8 or INT8 (none: a UINT8 0); the
/// quantized operand's type for a DequantizeLinear, the output's for a QuantizeLinear.
std::optional<TensorQuantization> tensorQuantization(StepRun& run, const Node& node);

/// The float scales of a DequantizeLinear of int8 weights with zero points of 0: one, or
/// `count` along `axis` of a tensor of `rank`; nullopt otherwise.
std::optional<std::vector<float>> weightScales(StepRun& run, const Node& dequantize, size_t count,
                                               int64_t axis, size_t rank);

/// A bias in an int8 product's accumulator units: `bias` (FLOAT, or what a DequantizeLinear
/// of INT32 gives back) divided by x_scale * w_scale[m] and rounded, as an INT32 array of
/// `count`; its quantized values themselves when its scales are that product.
std::optional<Array> accumulatorBias(StepRun& run, const Value* bias, float x_scale,
                                     const std::vector<float>& w_scales, size_t count);

}  // namespace onyx::eval_internal
