// MaxUnpool (ai.onnx), versions 9, 11, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The output_shape input when its elements are known; otherwise each spatial axis is
// (in - 1) * stride + kernel - pads.
void inferMaxUnpool(InferenceContext& ctx) {
  if (ctx.hasInput(2)) {
    if (const Dims* target = ctx.inputData(2)) {
      for (DimValue size : *target) {
        if (size.isKnown() && size.value() < 0) {
          ctx.fail("output_shape has the negative value " + std::to_string(size.value()));
          return;
        }
      }
      ctx.setOutputShape(0, *target);
      return;
    }
    const Dims* target_shape = ctx.inputShape(2);
    if (target_shape != nullptr && target_shape->size() == 1 && (*target_shape)[0].isKnown() &&
        (*target_shape)[0].value() >= 0 &&
        static_cast<size_t>((*target_shape)[0].value()) <= kMaxPropagatedElements) {
      Dims out;
      for (int64_t i = 0; i < (*target_shape)[0].value(); ++i) out.push_back(ctx.dims().fresh());
      ctx.setOutputShape(0, std::move(out));
    }
    return;
  }
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() < 3) {
    ctx.fail("the input has rank " + std::to_string(input->size()) +
             "; MaxUnpool needs (N, C, D1, ...)");
    return;
  }
  size_t spatial = input->size() - 2;
  std::optional<std::vector<int64_t>> present = ctx.intsAttribute("kernel_shape");
  if (!present || present->empty()) return;
  std::optional<std::vector<int64_t>> kernel = spatialAttribute(ctx, "kernel_shape", spatial, 1, 1);
  if (!kernel) return;
  std::optional<std::vector<int64_t>> strides = spatialAttribute(ctx, "strides", spatial, 1, 1);
  if (!strides) return;
  std::optional<std::vector<int64_t>> pads = spatialAttribute(ctx, "pads", 2 * spatial, 0, 0);
  if (!pads) return;
  SymbolicDims& dims = ctx.dims();
  Dims out{(*input)[0], (*input)[1]};
  for (size_t i = 0; i < spatial; ++i) {
    DimValue size = dims.multiply(dims.subtract((*input)[2 + i], DimValue::known(1)),
                                  DimValue::known((*strides)[i]));
    size = dims.add(size, DimValue::known((*kernel)[i]));
    size = dims.subtract(size, DimValue::known((*pads)[i]));
    size = dims.subtract(size, DimValue::known((*pads)[spatial + i]));
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

constexpr Formals kInputs9 = {{"X", "T1"}, {"I", "T2"}, optional("output_shape", "T2")};
constexpr Formals kOutputs9 = {{"output", "T1"}};
constexpr Attributes kAttributes9 = {required("kernel_shape", kInts), attr("pads", kInts),
                                     attr("strides", kInts)};
constexpr Constraints kConstraints9 = {{"T1", tensor("float16 float double")},
                                       {"T2", tensor("int64")}};

extern const Operator kMaxUnpool;
constexpr Operator kMaxUnpool{
    .domain = kOnnxDomain,
    .name = "MaxUnpool",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferMaxUnpool},
        {.since_version = 11,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferMaxUnpool},
        {.since_version = 22,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}, {"T2", tensor("int64")}},
         .infer = inferMaxUnpool},
    }};
static_assert(isWellFormed(kMaxUnpool));

}  // namespace onyx::ops::ai_onnx
