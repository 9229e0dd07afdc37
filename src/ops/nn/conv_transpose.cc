// ConvTranspose (ai.onnx), versions 1, 11, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Output (N, W[1] * group, spatial...): output_shape when given, else
// stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1 - pads, where SAME
// pads total max(0, window - stride) split between the two ends.
void inferConvTranspose(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() < 3) {
    ctx.fail("the input has rank " + std::to_string(input->size()) +
             "; ConvTranspose needs (N, C, D1, ...)");
    return;
  }
  size_t spatial = input->size() - 2;
  const Dims* weight = ctx.inputShape(1);
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
  SymbolicDims& dims = ctx.dims();
  Dims out;
  out.reserve(input->size());
  out.push_back((*input)[0]);
  out.push_back(weight != nullptr ? dims.multiply((*weight)[1], DimValue::known(group))
                                  : dims.fresh());

  std::optional<std::vector<int64_t>> output_shape = ctx.intsAttribute("output_shape");
  if (output_shape && !output_shape->empty()) {
    // Written either for the spatial axes alone or for all axes.
    if (output_shape->size() != spatial && output_shape->size() != spatial + 2) {
      ctx.fail("output_shape has " + std::to_string(output_shape->size()) + " values for " +
               std::to_string(spatial) + " spatial axes");
      return;
    }
    for (size_t i = output_shape->size() - spatial; i < output_shape->size(); ++i) {
      int64_t size = (*output_shape)[i];
      if (size < 0) {
        ctx.fail("output_shape has the negative value " + std::to_string(size));
        return;
      }
      out.push_back(DimValue::known(size));
    }
    ctx.setOutputShape(0, std::move(out));
    return;
  }

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
    for (size_t i = 0; i < spatial; ++i) out.push_back(dims.fresh());
    ctx.setOutputShape(0, std::move(out));
    return;
  }
  std::optional<std::vector<int64_t>> strides = spatialAttribute(ctx, "strides", spatial, 1, 1);
  if (!strides) return;
  std::optional<std::vector<int64_t>> dilations = spatialAttribute(ctx, "dilations", spatial, 1, 1);
  if (!dilations) return;
  std::optional<std::vector<int64_t>> output_padding =
      spatialAttribute(ctx, "output_padding", spatial, 0, 0);
  if (!output_padding) return;
  std::optional<std::vector<int64_t>> explicit_pads = ctx.intsAttribute("pads");
  bool has_pads = explicit_pads && !explicit_pads->empty();
  std::optional<std::vector<int64_t>> pads = spatialAttribute(ctx, "pads", 2 * spatial, 0, 0);
  if (!pads) return;
  std::optional<AutoPad> auto_pad = autoPadOf(ctx);
  if (!auto_pad) return;
  for (size_t i = 0; i < spatial; ++i) {
    if ((*kernel)[i] <= 0) {
      ctx.fail("the kernel has the size " + std::to_string((*kernel)[i]) +
               "; sizes must be positive");
      return;
    }
    DimValue stride = DimValue::known((*strides)[i]);
    DimValue window =
        dims.add(dims.multiply(DimValue::known((*kernel)[i] - 1), DimValue::known((*dilations)[i])),
                 DimValue::known(1));
    DimValue pad_total =
        dims.add(DimValue::known((*pads)[i]), DimValue::known((*pads)[spatial + i]));
    if (!has_pads && (*auto_pad == AutoPad::kSameUpper || *auto_pad == AutoPad::kSameLower)) {
      DimValue excess = dims.subtract(window, stride);
      pad_total = excess.isKnown() && excess.value() > 0 ? excess : DimValue::known(0);
    }
    DimValue size = dims.multiply(stride, dims.subtract((*input)[2 + i], DimValue::known(1)));
    size = dims.add(size, DimValue::known((*output_padding)[i]));
    size = dims.subtract(dims.add(size, window), pad_total);
    if (size.isKnown() && size.value() < 0) {
      ctx.fail("spatial axis " + std::to_string(i) + " gets the negative size " +
               std::to_string(size.value()));
      return;
    }
    out.push_back(size);
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}, {"W", "T"}, optional("B", "T")};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {
    attr("auto_pad", "NOTSET"),  attr("dilations", kInts),      attr("group", 1),
    attr("kernel_shape", kInts), attr("output_padding", kInts), attr("output_shape", kInts),
    attr("pads", kInts),         attr("strides", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kConvTranspose;
constexpr Operator kConvTranspose{
    .domain = kOnnxDomain,
    .name = "ConvTranspose",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferConvTranspose},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferConvTranspose},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferConvTranspose},
    }};
static_assert(isWellFormed(kConvTranspose));

}  // namespace onyx::ops::ai_onnx
