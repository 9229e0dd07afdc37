// The table of channels-last kernels (channels_last_kernels.h): pooling, upsampling and
// concatenation through their operators' channels-last variants (ops/channels_last.h), and
// elementwise operators through their own kernels, which do not care where an element sits.
#include "eval/layout/channels_last_kernels.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "eval/kernels/halves_as_floats.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ops/op_schema.h"
#include "ops/channels_last.h"

namespace onyx::eval_internal {

namespace {

// One output, the first.
bool oneOutput(const Node& node) {
  if (node.outputCount() == 0 || node.output(0) == nullptr) return false;
  for (size_t i = 1; i < node.outputCount(); ++i) {
    if (node.output(i) != nullptr) return false;
  }
  return true;
}

bool firstInput(size_t i) { return i == 0; }
bool everyInput(size_t i) {
  (void)i;
  return true;
}

Result<bool> setResult(KernelContext& ctx, Result<std::optional<Array>> result) {
  if (!result) return std::move(result).takeStatus();
  if (!*result) return false;
  ctx.setOutput(0, std::move(**result));
  return true;
}

// ---- MaxPool ------------------------------------------------------------------------------

bool takesMaxPool(const Node& node, const OpSchema*) {
  const Attribute* kernel = node.attribute("kernel_shape");
  return isStandardOperator(node, "MaxPool") && oneOutput(node) && kernel != nullptr &&
         kernel->ints.size() == 2;
}

Result<bool> runMaxPool(KernelContext& ctx, Kernel kernel) {
  (void)kernel;
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return false;
  return setResult(ctx, ops::maxPoolChannelsLast(ctx, *x));
}

// ---- Resize ------------------------------------------------------------------------------

bool takesResize(const Node& node, const OpSchema*) {
  const Attribute* mode = node.attribute("mode");
  std::string_view given = mode != nullptr ? mode->s.value_or("") : "nearest";
  return isStandardOperator(node, "Resize") && oneOutput(node) &&
         (given == "nearest" || given == "linear");
}

Result<bool> runResize(KernelContext& ctx, Kernel kernel) {
  (void)kernel;
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return false;
  return setResult(ctx, ops::resizeChannelsLast(ctx, *x));
}

// ---- Concat ------------------------------------------------------------------------------

// On the channel axis of a 4-D value (rank 4 is checked when it runs).
bool takesConcat(const Node& node, const OpSchema*) {
  const Attribute* axis = node.attribute("axis");
  int64_t along = axis != nullptr ? axis->i.value_or(1) : 1;
  return isStandardOperator(node, "Concat") && oneOutput(node) && (along == 1 || along == -3);
}

Result<bool> runConcat(KernelContext& ctx, Kernel kernel) {
  (void)kernel;
  std::vector<const Array*> parts;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const Array* part = ctx.inputArray(i);
    if (part == nullptr) return false;
    parts.push_back(part);
  }
  return setResult(ctx, ops::concatChannelsLast(ctx, parts));
}

// ---- Elementwise operators ---------------------------------------------------------------

// Elementwise operators (OpTraits::kElementwise: output element k is a function of input
// element k alone, so the same function of the same elements in either layout) whose output
// has the element type of an input: images are FLOAT, and so is what the node writes
// channels-last (Cast, the comparisons, IsNaN change the element type and are left out). An
// input of one element broadcasts to every element alike.
bool takesElementwise(const Node& node, const OpSchema* schema) {
  return oneOutput(node) && schema != nullptr && elementwiseKeepingType(*schema) &&
         isStandardOperator(node, node.opType());
}

// Whether every input is of one shape (N, H, W, C) or of one element, one at least an image:
// the operator's own kernel then gives an output of that shape.
bool imagesOfOneShape(const KernelContext& ctx) {
  const Array* image = nullptr;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    if (!ctx.hasInput(i)) continue;
    const Array* input = ctx.inputArray(i);
    if (input == nullptr) return false;
    if (input->size() == 1 && input->rank() <= 4) continue;
    if (input->rank() != 4 || (image != nullptr && input->shape() != image->shape())) return false;
    image = input;
  }
  return image != nullptr;
}

Result<bool> runElementwise(KernelContext& ctx, Kernel kernel) {
  if (!imagesOfOneShape(ctx)) return false;
  // float16 on the float kernel, rounded once, as where the node runs alone.
  ONYX_RETURN_IF_ERROR(hasHalfInput(ctx) ? runOnFloats(ctx) : kernel(ctx));
  return true;
}

// ---- QuantizeLinear and DequantizeLinear per tensor --------------------------------------

// Elementwise when the scale and zero point are one value each (checked when it runs: a scale
// per channel is no input of one element, and the node then runs channels-first), so that a
// QDQ pair between two convolutions keeps their values channels-last, as uint8 or int8 in
// between.
bool takesQuantization(const Node& node, const OpSchema*) {
  const Attribute* block = node.attribute("block_size");
  return (isStandardOperator(node, "QuantizeLinear") ||
          isStandardOperator(node, "DequantizeLinear")) &&
         oneOutput(node) && (block == nullptr || block->i.value_or(0) == 0);
}

// Its own kernel whatever the element type: a float16 x is divided in float16 by the spec,
// which a float kernel would not do.
Result<bool> runQuantization(KernelContext& ctx, Kernel kernel) {
  if (!imagesOfOneShape(ctx)) return false;
  ONYX_RETURN_IF_ERROR(kernel(ctx));
  return true;
}

constexpr ChannelsLastKernel kKernels[] = {
    {.takes = takesMaxPool, .image = firstInput, .run = runMaxPool},
    {.takes = takesResize, .image = firstInput, .run = runResize},
    {.takes = takesConcat, .image = everyInput, .run = runConcat},
    {.takes = takesElementwise, .image = everyInput, .run = runElementwise},
    {.takes = takesQuantization, .image = firstInput, .run = runQuantization},
};

}  // namespace

bool elementwiseKeepingType(const OpSchema& schema) {
  if (!hasTraits(schema.traits, OpTraits::kElementwise) || schema.outputs.size() != 1) {
    return false;
  }
  std::string_view output_type = schema.outputs.begin()->type;
  bool keeps_type = false;
  for (const FormalParameter& input : schema.inputs) keeps_type |= output_type == input.type;
  return keeps_type;
}

const ChannelsLastKernel* channelsLastKernel(const Node& node, const OpSchema* schema) {
  for (const ChannelsLastKernel& kernel : kKernels) {
    if (kernel.takes(node, schema)) return &kernel;
  }
  return nullptr;
}

}  // namespace onyx::eval_internal
