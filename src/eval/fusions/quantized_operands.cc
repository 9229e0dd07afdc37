#include "eval/fusions/quantized_operands.h"

#include <cmath>
#include <limits>

#include "eval/kernels/int8_operands.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/value.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

namespace {

// The float elements of a FLOAT array, or empty.
std::vector<float> floatsOf(const Array* array) {
  if (array == nullptr || array->type() != ElementType::kFloat) return {};
  return {array->data<float>(), array->data<float>() + array->size()};
}

}  // namespace

const Node* quantizationNode(const Value* value, std::string_view op_type, const FusionGraph& graph,
                             bool operand_constant) {
  const Node* node = value != nullptr ? value->producer() : nullptr;
  if (node == nullptr || !isStandardOperator(*node, op_type) || graph.fused(*node) ||
      node->inputCount() < 2 || node->input(0) == nullptr || node->input(1) == nullptr ||
      node->outputCount() != 1 || !graph.constant(node->input(1)) ||
      (operand_constant && !graph.constant(node->input(0)))) {
    return nullptr;
  }
  if (node->inputCount() > 2 && node->input(2) != nullptr && !graph.constant(node->input(2))) {
    return nullptr;
  }
  const Attribute* block = node->attribute("block_size");
  if (block != nullptr && block->i.value_or(0) != 0) return nullptr;
  const bool zero_given = node->inputCount() > 2 && node->input(2) != nullptr;
  if (op_type == "QuantizeLinear" && !zero_given && node->attribute("output_dtype") != nullptr) {
    return nullptr;
  }
  return node;
}

const Node* soleReaderOf(const Value* value, std::string_view op_type, const FusionGraph& graph) {
  const Node* reader = graph.soleReader(value);
  if (reader == nullptr || !isStandardOperator(*reader, op_type) || graph.fused(*reader) ||
      reader->outputCount() != 1 || reader->output(0) == nullptr) {
    return nullptr;
  }
  return reader;
}

void takeDequantize(const Node* dequantize, const Node& reader, const FusionGraph& graph,
                    FusionMatch& match) {
  if (dequantize == nullptr) return;
  if (graph.soleReader(dequantize->output(0)) == &reader) {
    match.members.push_back(dequantize);
    return;
  }
  for (size_t i = 0; i < dequantize->inputCount(); ++i) {
    if (dequantize->input(i) != nullptr) match.reads.push_back(dequantize->input(i));
  }
}

std::optional<QuantizedOutput> quantizedOutput(const Node& anchor, const FusionGraph& graph,
                                               bool relu) {
  QuantizedOutput output;
  const Node* next = graph.soleReader(anchor.output(0));
  if (const Node* rectifier = soleReaderOf(anchor.output(0), "Relu", graph);
      relu && rectifier != nullptr && rectifier->inputCount() == 1) {
    output.relu = rectifier;
    next = graph.soleReader(rectifier->output(0));
  }
  if (next == nullptr || next->outputCount() != 1) return std::nullopt;
  output.quantize = quantizationNode(next->output(0), "QuantizeLinear", graph);
  if (output.quantize != next) return std::nullopt;
  return output;
}

void takeOutput(const Node& anchor, const QuantizedOutput& output, FusionMatch& match) {
  match.members.push_back(&anchor);
  if (output.relu != nullptr) match.members.push_back(output.relu);
  match.members.push_back(output.quantize);
}

std::optional<TensorQuantization> tensorQuantization(StepRun& run, const Node& node) {
  const Array* scale = run.tensor(node.input(1));
  const Array* zero = node.inputCount() > 2 ? run.tensor(node.input(2)) : nullptr;
  if (scale == nullptr || scale->type() != ElementType::kFloat || scale->size() != 1 ||
      (node.inputCount() > 2 && node.input(2) != nullptr && zero == nullptr)) {
    return std::nullopt;
  }
  TensorQuantization quantization;
  quantization.scale = scale->data<float>()[0];
  if (zero != nullptr) {
    if (!isByteType(zero->type()) || zero->size() != 1) return std::nullopt;
    quantization.type = zero->type();
    quantization.zero =
        zero->type() == ElementType::kInt8 ? zero->data<int8_t>()[0] : zero->data<uint8_t>()[0];
  }
  if (isStandardOperator(node, "DequantizeLinear")) {
    // Its operand says the type; a zero point, when given, has the same.
    const Array* operand = run.tensor(node.input(0));
    if (operand == nullptr || !isByteType(operand->type()) ||
        (zero != nullptr && zero->type() != operand->type())) {
      return std::nullopt;
    }
    quantization.type = operand->type();
  }
  if (!std::isfinite(quantization.scale) || !(quantization.scale > 0)) return std::nullopt;
  return quantization;
}

std::optional<std::vector<float>> weightScales(StepRun& run, const Node& dequantize, size_t count,
                                               int64_t axis, size_t rank) {
  const Array* weights = run.tensor(dequantize.input(0));
  std::vector<float> scales = floatsOf(run.tensor(dequantize.input(1)));
  const Array* zero = dequantize.inputCount() > 2 ? run.tensor(dequantize.input(2)) : nullptr;
  if (weights == nullptr || weights->type() != ElementType::kInt8 || weights->rank() != rank ||
      (scales.size() != 1 && scales.size() != count) ||
      (dequantize.inputCount() > 2 && dequantize.input(2) != nullptr && zero == nullptr)) {
    return std::nullopt;
  }
  if (scales.size() != 1) {
    KernelContext ctx = run.context(dequantize);
    int64_t given = ctx.intAttribute("axis").value_or(1);
    if (given < 0) given += static_cast<int64_t>(rank);
    if (given != axis) return std::nullopt;
  }
  if (zero != nullptr) {
    if (zero->type() != ElementType::kInt8 || zero->size() != scales.size()) return std::nullopt;
    for (size_t i = 0; i < zero->size(); ++i) {
      if (zero->data<int8_t>()[i] != 0) return std::nullopt;
    }
  }
  for (float scale : scales) {
    if (!std::isfinite(scale) || !(scale > 0)) return std::nullopt;
  }
  return scales;
}

std::optional<Array> accumulatorBias(StepRun& run, const Value* bias, float x_scale,
                                     const std::vector<float>& w_scales, size_t count) {
  // The bias's quantized values and their scales, or its floats (scale 1).
  const Node* producer = bias->producer();
  const Array* values = nullptr;
  std::vector<float> scales = {1.0f};
  if (producer != nullptr && isStandardOperator(*producer, "DequantizeLinear") &&
      producer->inputCount() >= 2) {
    values = run.tensor(producer->input(0));
    scales = floatsOf(run.tensor(producer->input(1)));
    const Array* zero = producer->inputCount() > 2 ? run.tensor(producer->input(2)) : nullptr;
    if (values == nullptr || values->type() != ElementType::kInt32 ||
        (scales.size() != 1 && scales.size() != count) ||
        (zero != nullptr && zero->type() != ElementType::kInt32)) {
      return std::nullopt;
    }
    for (size_t i = 0; zero != nullptr && i < zero->size(); ++i) {
      if (zero->data<int32_t>()[i] != 0) return std::nullopt;
    }
  } else {
    values = run.tensor(bias);
    if (values == nullptr || values->type() != ElementType::kFloat) return std::nullopt;
  }
  if (values->size() != count) return std::nullopt;
  Array sums(ElementType::kInt32, {static_cast<int64_t>(count)});
  for (size_t m = 0; m < count; ++m) {
    const float unit = x_scale * w_scales[w_scales.size() == 1 ? 0 : m];
    const float scale = scales[scales.size() == 1 ? 0 : m];
    if (values->type() == ElementType::kInt32 && scale == unit) {
      sums.data<int32_t>()[m] = values->data<int32_t>()[m];
      continue;
    }
    const double value = values->type() == ElementType::kInt32
                             ? static_cast<double>(values->data<int32_t>()[m]) * scale
                             : static_cast<double>(values->data<float>()[m]);
    const double rounded = std::nearbyint(value / unit);
    if (!(std::fabs(rounded) < static_cast<double>(std::numeric_limits<int32_t>::max()))) {
      return std::nullopt;
    }
    sums.data<int32_t>()[m] = static_cast<int32_t>(rounded);
  }
  return sums;
}

}  // namespace onyx::eval_internal
