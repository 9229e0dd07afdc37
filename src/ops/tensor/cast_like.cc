// CastLike (ai.onnx), versions 15, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstddef>
#include <cstdint>

#include "onyx/core/element_type.h"
#include "onyx/core/status.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/type.h"
#include "ops/body_text.h"
#include "ops/lib/cast_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferCastLike(InferenceContext& ctx) {
  int32_t to = ctx.inputElemType(1);
  if (to != 0) ctx.setOutputElemType(0, to);
  if (const Dims* in = ctx.inputShape(0)) ctx.setOutputShape(0, *in);
  if (const Dims* data = ctx.inputData(0); data != nullptr && carriesData(to)) {
    ctx.setOutputData(0, *data);
  }
}

Status runCastLike(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* like = ctx.inputArray(1);
  if (x == nullptr || like == nullptr) return ctx.fail("needs two tensor inputs");
  Result<cast::CastOptions> options = cast::castOptions(ctx);
  if (!options) return options.status();
  Result<Array> out = cast::castArray(*x, like->type(), *options, &ctx);
  if (!out) return ctx.fail(out.status().message());
  ctx.setOutput(0, std::move(*out));
  return Status::ok();
}

}  // namespace

constexpr TypeSet kT1Types15 = tensor(
    "float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool string bfloat16");
constexpr TypeSet kT1Types19 = tensor(
    "float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool string bfloat16 "
    "float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz");
constexpr TypeSet kT1Types21 = tensor(
    "uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 float16 float double string bool "
    "float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz uint4 int4");
constexpr TypeSet kT1Types23 = tensor(
    "uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 float16 float double string bool "
    "float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz uint4 int4 float4e2m1");
constexpr TypeSet kT1Types24 = tensor(
    "uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 float16 float double string bool "
    "float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz uint4 int4 float4e2m1 float8e8m0");
constexpr TypeSet kT1Types25 = tensor(
    "uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 float16 float double string bool "
    "float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz uint4 int4 float4e2m1 float8e8m0 uint2 "
    "int2");
constexpr Formals kInputs15 = {{"input", "T1"}, {"target_type", "T2"}};
constexpr Formals kOutputs15 = {{"output", "T2"}};
constexpr Attributes kAttributes19 = {attr("saturate", 1)};
constexpr Attributes kAttributes24 = {attr("round_mode", "up"), attr("saturate", 1)};

namespace {

// CastLike as the spec defines it: Cast to the element type of target_type, which the body
// needs to know. Version 15 has no `saturate` to pass on.
Result<std::string> buildCastLike15(const FunctionBodyContext& context) {
  Result<int32_t> target = body::requireElementType(context, 1);
  if (!target) return target.status();
  body::BodyText out(context, "CastLike");
  out.addf("output = Cast <to = {}> (input)", *target);
  return out.finish();
}

Result<std::string> buildCastLike19(const FunctionBodyContext& context) {
  Result<int32_t> target = body::requireElementType(context, 1);
  if (!target) return target.status();
  body::BodyText out(context, "CastLike");
  out.addf("output = Cast <to = {}, saturate: int = @saturate> (input)", *target);
  return out.finish();
}

// The element type of input `i` (a TensorProto.DataType code), from its type or its
// constant; 0 when unknown.
int32_t inputElementType(const NodeDraft& draft, size_t i) {
  if (const Type* type = draft.inputType(i); type != nullptr && type->elem_type) {
    return *type->elem_type;
  }
  if (const Tensor* constant = draft.constantInput(i); constant != nullptr) {
    return constant->data_type.value_or(0);
  }
  return 0;
}

// Across 23 and 24: casting ±inf to float8e4m3fnuz or float8e5m2fnuz with saturate gives NaN
// up to version 23 and the largest value from 24 (as Cast), so such a cast keeps its meaning
// only when the input holds no infinity (is not floating-point).
Status fnuzInfinityStays(NodeDraft& draft) {
  const ElementTypeInfo* target = elementTypeInfo(inputElementType(draft, 1));
  if (target != nullptr && target->type != ElementType::kFloat8E4M3FNUZ &&
      target->type != ElementType::kFloat8E5M2FNUZ) {
    return Status::ok();
  }
  if (draft.attribute("saturate") != nullptr && draft.intAttr("saturate") == 0) {
    return Status::ok();
  }
  const ElementTypeInfo* input = elementTypeInfo(inputElementType(draft, 0));
  if (input == nullptr || input->isFloatingPoint()) {
    return draft.refuse(
        "a saturating cast to a FNUZ type (or an unknown one) of an input that "
        "may hold infinity");
  }
  return Status::ok();
}

// Down to version 23: round_mode applies to float8e8m0 only, which version 23 lacks.
Status dropRoundMode(NodeDraft& draft) {
  ONYX_RETURN_IF_ERROR(fnuzInfinityStays(draft));
  draft.removeAttribute("round_mode");
  return Status::ok();
}

}  // namespace

extern const Operator kCastLike;
constexpr Operator kCastLike{
    .domain = kOnnxDomain,
    .name = "CastLike",
    .versions = {
        {.since_version = 15,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .constraints = {{"T1", kT1Types15}, {"T2", kT1Types15}},
         .build_function_body = buildCastLike15,
         .infer = inferCastLike,
         .kernel = runCastLike},
        {.since_version = 19,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes19,
         .constraints = {{"T1", kT1Types19}, {"T2", kT1Types19}},
         .build_function_body = buildCastLike19,
         .infer = inferCastLike,
         .kernel = runCastLike,
         .step = {.reviewed = true,
                  .change = "saturate added (for float8 only); float8 types added",
                  .down = dropSaturate}},
        {.since_version = 21,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes19,
         .constraints = {{"T1", kT1Types21}, {"T2", kT1Types21}},
         .build_function_body = buildCastLike19,
         .infer = inferCastLike,
         .kernel = runCastLike,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes19,
         .constraints = {{"T1", kT1Types23}, {"T2", kT1Types23}},
         .build_function_body = buildCastLike19,
         .infer = inferCastLike,
         .kernel = runCastLike,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes24,
         .constraints = {{"T1", kT1Types24}, {"T2", kT1Types24}},
         .build_function_body = buildCastLike19,
         .infer = inferCastLike,
         .kernel = runCastLike,
         .step = {.reviewed = true,
                  .change = "round_mode added (for float8e8m0 only); float8e8m0 added; saturated "
                            "inf to FNUZ types became the largest value (was NaN)",
                  .up = fnuzInfinityStays,
                  .down = dropRoundMode,
                  .up_refuses = "saturating cast to a FNUZ type, input may hold inf",
                  .down_refuses = "saturating cast to a FNUZ type, input may hold inf"}},
        {.since_version = 25,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes24,
         .constraints = {{"T1", kT1Types25}, {"T2", kT1Types25}},
         .build_function_body = buildCastLike19,
         .infer = inferCastLike,
         .kernel = runCastLike,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kCastLike));

}  // namespace onyx::ops::ai_onnx
