// Cast (ai.onnx), versions 1, 6, 9, 13, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "onyx/core/element_type.h"
#include "onyx/core/status.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/type.h"
#include "ops/lib/cast_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The output has the input's shape; integer data stays data when cast to int32 or int64
// (shapes computed in int32), and is dropped on the way into other types.
void castTo(InferenceContext& ctx, int32_t to) {
  if (to != 0) ctx.setOutputElemType(0, to);
  if (const Dims* in = ctx.inputShape(0)) ctx.setOutputShape(0, *in);
  const Dims* data = ctx.inputData(0);
  if (data == nullptr || !carriesData(to)) return;
  if (to == static_cast<int32_t>(ElementType::kInt32)) {
    for (DimValue element : *data) {
      if (element.isKnown() && (element.value() < INT32_MIN || element.value() > INT32_MAX)) {
        return;
      }
    }
  }
  ctx.setOutputData(0, *data);
}

void inferCast(InferenceContext& ctx) {
  std::optional<int64_t> to = ctx.intAttribute("to");
  castTo(ctx, to && elementTypeInfo(static_cast<int32_t>(*to)) != nullptr
                  ? static_cast<int32_t>(*to)
                  : 0);
}

// Cast-1 names the type as a string ("FLOAT").
void inferCast1(InferenceContext& ctx) {
  std::optional<std::string_view> to = ctx.stringAttribute("to");
  std::optional<ElementType> type = to ? elementTypeFromName(*to) : std::nullopt;
  castTo(ctx, type ? static_cast<int32_t>(*type) : 0);
}

Status runCastTo(KernelContext& ctx, ElementType to) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  Result<cast::CastOptions> options = cast::castOptions(ctx);
  if (!options) return options.status();
  Result<Array> out = cast::castArray(*x, to, *options, &ctx);
  if (!out) return ctx.fail(out.status().message());
  ctx.setOutput(0, std::move(*out));
  return Status::ok();
}

Status runCast(KernelContext& ctx) {
  int64_t to = ctx.intAttribute("to").value_or(0);
  const ElementTypeInfo* info =
      to > 0 && to <= INT32_MAX ? elementTypeInfo(static_cast<int32_t>(to)) : nullptr;
  if (info == nullptr || info->isComplex()) {
    return ctx.fail("`to` = " + std::to_string(to) + " is not an element type Cast can produce");
  }
  return runCastTo(ctx, info->type);
}

// Cast-1 names the type as a string ("FLOAT").
Status runCast1(KernelContext& ctx) {
  std::string_view name = ctx.stringAttribute("to").value_or("");
  std::optional<ElementType> type = elementTypeFromName(name);
  if (!type || *type == ElementType::kComplex64 || *type == ElementType::kComplex128) {
    return ctx.fail("`to` = \"" + std::string(name) + "\" is not an element type Cast can produce");
  }
  return runCastTo(ctx, *type);
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

// Up to version 6, which names the type by its TensorProto.DataType code.
Status toTypeCode(NodeDraft& draft) {
  const Attribute* to = draft.attribute("to");
  if (to == nullptr || to->kind() != AttributeKind::kString || !to->s) {
    return draft.refuse("to is missing or not a string");
  }
  std::optional<ElementType> type = elementTypeFromName(*to->s);
  if (!type) return draft.refuse("to names no element type");
  draft.setIntAttr("to", static_cast<int64_t>(*type));
  return Status::ok();
}

// Down to version 1, which names the type as a string ("FLOAT").
Status toTypeName(NodeDraft& draft) {
  std::optional<int64_t> to = draft.intAttr("to");
  if (!to || *to < 1 || *to > INT32_MAX || elementTypeInfo(static_cast<int32_t>(*to)) == nullptr) {
    return draft.refuse("to is not a known element type code");
  }
  draft.setStringAttr("to", elementTypeName(static_cast<int32_t>(*to)));
  return Status::ok();
}

// Across 23 and 24: casting ±inf to float8e4m3fnuz or float8e5m2fnuz with saturate gives NaN
// up to version 23 and the largest value from 24, so such a cast keeps its meaning only when
// the input holds no infinity (is not floating-point).
Status fnuzInfinityStays(NodeDraft& draft) {
  std::optional<int64_t> to = draft.intAttr("to");
  if (!to) return draft.refuse("to is not an int");
  if (*to != static_cast<int64_t>(ElementType::kFloat8E4M3FNUZ) &&
      *to != static_cast<int64_t>(ElementType::kFloat8E5M2FNUZ)) {
    return Status::ok();
  }
  if (draft.attribute("saturate") != nullptr && draft.intAttr("saturate") == 0) {
    return Status::ok();
  }
  const ElementTypeInfo* info = elementTypeInfo(inputElementType(draft, 0));
  if (info == nullptr || info->isFloatingPoint()) {
    return draft.refuse("a saturating cast to a FNUZ type of an input that may hold infinity");
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

constexpr TypeSet kT1Types1 =
    tensor("float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool");
constexpr TypeSet kT1Types9 =
    tensor("float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool string");
constexpr TypeSet kT1Types13 = tensor(
    "float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool string bfloat16");
constexpr TypeSet kT1Types19 = tensor(
    "float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool string bfloat16 "
    "float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz");
constexpr TypeSet kT1Types21 = tensor(
    "float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool string bfloat16 "
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
constexpr Formals kInputs1 = {{"input", "T1"}};
constexpr Formals kOutputs1 = {{"output", "T2"}};
constexpr Attributes kAttributes6 = {required("to", kInt)};
constexpr Attributes kAttributes19 = {attr("saturate", 1), required("to", kInt)};
constexpr Attributes kAttributes24 = {attr("round_mode", "up"), attr("saturate", 1),
                                      required("to", kInt)};
constexpr Constraints kConstraints1 = {{"T1", kT1Types1}, {"T2", kT1Types1}};

extern const Operator kCast;
constexpr Operator kCast{
    .domain = kOnnxDomain,
    .name = "Cast",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {required("to", kString)},
         .constraints = kConstraints1,
         .infer = inferCast1,
         .kernel = runCast1},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = kConstraints1,
         .infer = inferCast,
         .kernel = runCast,
         .step = {.reviewed = true,
                  .change = "to became a type code (was a type name)",
                  .up = toTypeCode,
                  .down = toTypeName,
                  .up_refuses = "to naming no element type"}},
        {.since_version = 9,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = {{"T1", kT1Types9}, {"T2", kT1Types9}},
         .infer = inferCast,
         .kernel = runCast,
         .step = typesOnly("string added")},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = {{"T1", kT1Types13}, {"T2", kT1Types13}},
         .infer = inferCast,
         .kernel = runCast,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 19,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes19,
         .constraints = {{"T1", kT1Types19}, {"T2", kT1Types19}},
         .infer = inferCast,
         .kernel = runCast,
         .step = {.reviewed = true,
                  .change = "saturate added (for float8 only); float8 types added",
                  .down = dropSaturate}},
        {.since_version = 21,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes19,
         .constraints = {{"T1", kT1Types21}, {"T2", kT1Types21}},
         .infer = inferCast,
         .kernel = runCast,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes19,
         .constraints = {{"T1", kT1Types23}, {"T2", kT1Types23}},
         .infer = inferCast,
         .kernel = runCast,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes24,
         .constraints = {{"T1", kT1Types24}, {"T2", kT1Types24}},
         .infer = inferCast,
         .kernel = runCast,
         .step = {.reviewed = true,
                  .change = "round_mode added (for float8e8m0 only); float8e8m0 added; saturated "
                            "inf to FNUZ types became the largest value (was NaN)",
                  .up = fnuzInfinityStays,
                  .down = dropRoundMode,
                  .up_refuses = "saturating cast to a FNUZ type, input may hold inf",
                  .down_refuses = "saturating cast to a FNUZ type, input may hold inf"}},
        {.since_version = 25,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes24,
         .constraints = {{"T1", kT1Types25}, {"T2", kT1Types25}},
         .infer = inferCast,
         .kernel = runCast,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kCast));

}  // namespace onyx::ops::ai_onnx
