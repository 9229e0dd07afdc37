// Flatten (ai.onnx), versions 1, 9, 11, 13, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "ops/lib/tensor_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// (product of the axes before `axis`, product of the rest); axis is in [0, rank], and from
// version 11 also in [-rank, -1].
void flattenAt(InferenceContext& ctx, bool allow_negative) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  int64_t rank = static_cast<int64_t>(input->size());
  int64_t axis = ctx.intAttribute("axis").value_or(1);
  if (axis < 0 && allow_negative) axis += rank;
  if (axis < 0 || axis > rank) {
    ctx.fail("axis " + std::to_string(ctx.intAttribute("axis").value_or(1)) + " is outside [" +
             std::to_string(allow_negative ? -rank : 0) + ", " + std::to_string(rank) +
             "] for an input of rank " + std::to_string(rank));
    return;
  }
  std::span<const DimValue> all(*input);
  size_t split = static_cast<size_t>(axis);
  ctx.setOutputShape(0, {productOf(ctx, all.first(split)), productOf(ctx, all.subspan(split))});
}

void inferFlatten1(InferenceContext& ctx) { flattenAt(ctx, false); }
void inferFlatten(InferenceContext& ctx) { flattenAt(ctx, true); }

Status runFlatten(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  int64_t rank = static_cast<int64_t>(data->rank());
  int64_t axis = ctx.intAttribute("axis").value_or(1);
  if (axis < -rank || axis > rank) {
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                    std::to_string(rank));
  }
  if (axis < 0) axis += rank;
  size_t split = static_cast<size_t>(axis);
  ctx.setOutput(0, data->reshaped({elementProduct(data->shape(), 0, split),
                                   elementProduct(data->shape(), split)}));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("axis", 1)};
constexpr Constraints kConstraints9 = {{"T", tensor(kIr3Types)}};

extern const Operator kFlatten;
constexpr Operator kFlatten{
    .domain = kOnnxDomain,
    .name = "Flatten",
    .versions = {
        {.since_version = 1,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferFlatten1,
         .kernel = runFlatten},
        {.since_version = 9,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints9,
         .infer = inferFlatten1,
         .kernel = runFlatten,
         .step = typesOnly("integer, string, bool and complex types added")},
        {.since_version = 11,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints9,
         .infer = inferFlatten,
         .kernel = runFlatten,
         .step = {.reviewed = true,
                  .change = "negative axis allowed",
                  .down = axisFromFront,
                  .down_refuses = "a negative axis on an input of unknown rank"}},
        {.since_version = 13,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor(kIr4Types)}},
         .infer = inferFlatten,
         .kernel = runFlatten,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 21,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor(kIr10Types)}},
         .infer = inferFlatten,
         .kernel = runFlatten,
         .step = typesOnly("float8 types, int4 and uint4 added")},
        {.since_version = 23,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor(kIr11Types)}},
         .infer = inferFlatten,
         .kernel = runFlatten,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor(kIr12Types)}},
         .infer = inferFlatten,
         .kernel = runFlatten,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor(kIr13Types)}},
         .infer = inferFlatten,
         .kernel = runFlatten,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kFlatten));

}  // namespace onyx::ops::ai_onnx
