// QuantizeLinear (ai.onnx), versions 10, 13, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include "onyx/core/element_type.h"
#include "ops/kernels.h"
#include "ops/lib/cast_kernels.h"
#include "ops/lib/quantization_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// y has x's shape. Its element type is y_zero_point's (the signature gives it), else
// output_dtype (version 21 on) when set, else uint8.
void inferQuantizeLinear(InferenceContext& ctx) {
  inferSameShape(ctx);
  if (ctx.hasInput(2) && ctx.inputElemType(2) != 0) return;
  int64_t output_dtype = ctx.intAttribute("output_dtype").value_or(0);
  if (ctx.hasInput(2) && output_dtype == 0) return;  // the zero point's type is unknown
  if (output_dtype < 0 || output_dtype > 26) return;
  ctx.setOutputElemType(0, output_dtype != 0 ? static_cast<int32_t>(output_dtype)
                                             : static_cast<int32_t>(ElementType::kUint8));
}

Status runQuantizeLinear(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* scale = ctx.inputArray(1);
  const Array* zero = ctx.inputArray(2);
  if (x == nullptr || scale == nullptr) return ctx.fail("needs x and y_scale");
  const int version = ctx.schema().since_version;
  int64_t output_dtype = version >= 21 ? ctx.intAttribute("output_dtype").value_or(0) : 0;
  ElementType out_type = ElementType::kUint8;
  if (zero != nullptr) {
    out_type = zero->type();
    if (output_dtype != 0 && output_dtype != static_cast<int64_t>(out_type)) {
      return ctx.fail("output_dtype differs from y_zero_point's type");
    }
    if (zero->size() != scale->size()) {
      return ctx.fail("y_zero_point and y_scale differ in shape");
    }
  } else if (output_dtype != 0) {
    const ElementTypeInfo* info =
        output_dtype <= INT32_MAX ? elementTypeInfo(static_cast<int32_t>(output_dtype)) : nullptr;
    if (info == nullptr)
      return ctx.fail("output_dtype " + std::to_string(output_dtype) + " is unknown");
    out_type = info->type;
  }
  std::optional<std::pair<double, double>> range = quant::integerRange(out_type);
  bool float8 = float8FormatOf(out_type).has_value() && out_type != ElementType::kFloat8E8M0;
  if ((!range || out_type == ElementType::kInt32) && !float8 &&
      out_type != ElementType::kFloat4E2M1) {
    return ctx.fail(std::string(elementTypeName(out_type)) + " is not a quantized type");
  }
  int64_t block = version >= 21 ? ctx.intAttribute("block_size").value_or(0) : 0;
  if (block < 0) return ctx.fail("block_size is negative");
  if (version < 21 && scale->rank() > 1) return ctx.fail("y_scale must be a scalar or 1-D");
  std::string error;
  std::optional<quant::ScaleLayout> layout =
      quant::scaleLayout(x->shape(), *scale, ctx.intAttribute("axis").value_or(1), block, error);
  if (!layout) return ctx.fail(error);
  // The division's type: `precision` when given, else numpy's promotion of x and the scale.
  ElementType division = ElementType::kFloat;
  int64_t precision = version >= 23 ? ctx.intAttribute("precision").value_or(0) : 0;
  if (precision != 0) {
    const ElementTypeInfo* info =
        precision <= INT32_MAX ? elementTypeInfo(static_cast<int32_t>(precision)) : nullptr;
    if (info == nullptr || !info->isFloatingPoint()) {
      return ctx.fail("precision " + std::to_string(precision) + " is not a floating-point type");
    }
    division = info->type;
  } else if (x->type() == ElementType::kDouble || scale->type() == ElementType::kDouble ||
             x->type() == ElementType::kInt32 || scale->type() == ElementType::kInt32) {
    division = ElementType::kDouble;
  } else if (x->type() == scale->type()) {
    division = x->type();
  }
  cast::CastOptions options;
  options.saturate = ctx.intAttribute("saturate").value_or(1) != 0;
  options.fnuz_inf_is_nan = version < 24;
  Result<Array> made = Array::allocate(out_type, x->shape());
  if (!made) return made.status();
  Array out = std::move(*made);
  for (size_t i = 0; i < x->size(); ++i) {
    size_t at = layout->index(i);
    double value = elementAsDouble(*x, i);
    double divisor = elementAsDouble(*scale, at);
    if (precision != 0) {
      value = quant::roundTo(value, division);
      divisor = quant::roundTo(divisor, division);
    }
    double quotient = quant::roundTo(value / divisor, division);
    if (range) {
      double result = quant::rintToInt32(quotient);
      if (zero != nullptr) result += elementAsDouble(*zero, at);
      storeDouble(out, i, std::clamp(result, range->first, range->second));
    } else {
      if (out_type == ElementType::kFloat4E2M1 && zero != nullptr) {
        quotient += elementAsDouble(*zero, at);
      }
      out.data<uint8_t>()[i] =
          static_cast<uint8_t>(cast::encodeNarrow(static_cast<float>(quotient), out_type, options));
    }
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr TypeSet kT3Types23 = tensor(
    "int8 uint8 int16 uint16 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz uint4 int4 "
    "float4e2m1");
constexpr TypeSet kT2Types24 = tensor("float float16 bfloat16 int32 float8e8m0");
constexpr Formals kInputs10 = {
    {"x", "T1"}, {"y_scale", "tensor(float)"}, optional("y_zero_point", "T2")};
constexpr Formals kInputs19 = {{"x", "T1"}, {"y_scale", "T1"}, optional("y_zero_point", "T2")};
constexpr Formals kInputs23 = {{"x", "T1"}, {"y_scale", "T2"}, optional("y_zero_point", "T3")};
constexpr Formals kOutputs10 = {{"y", "T2"}};
constexpr Formals kOutputs23 = {{"y", "T3"}};
constexpr Attributes kAttributes23 = {attr("axis", 1), attr("block_size", 0),
                                      attr("output_dtype", 0), attr("precision", 0),
                                      attr("saturate", 1)};
constexpr Constraints kConstraints10 = {{"T1", tensor("float int32")},
                                        {"T2", tensor("int8 uint8")},
                                        {"tensor(float)", tensor("float")}};

extern const Operator kQuantizeLinear;
constexpr Operator kQuantizeLinear{
    .domain = kOnnxDomain,
    .name = "QuantizeLinear",
    .versions = {
        {.since_version = 10,
         .traits = kQuantization,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .constraints = kConstraints10,
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear},
        {.since_version = 13,
         .traits = kQuantization,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = {attr("axis", 1)},
         .constraints = kConstraints10,
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear},
        {.since_version = 19,
         .traits = kQuantization,
         .inputs = kInputs19,
         .outputs = kOutputs10,
         .attributes = {attr("axis", 1), attr("saturate", 1)},
         .constraints =
             {{"T1", tensor("float float16 bfloat16 int32")},
              {"T2", tensor("int8 uint8 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz")}},
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear},
        {.since_version = 21,
         .traits = kQuantization,
         .inputs = kInputs19,
         .outputs = kOutputs10,
         .attributes = {attr("axis", 1), attr("block_size", 0), attr("output_dtype", 0),
                        attr("saturate", 1)},
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", tensor("int8 uint8 int16 uint16 float8e4m3fn float8e4m3fnuz "
                                       "float8e5m2 float8e5m2fnuz uint4 int4")}},
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear},
        {.since_version = 23,
         .traits = kQuantization,
         .inputs = kInputs23,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", tensor("float float16 bfloat16 int32")},
                         {"T3", kT3Types23}},
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear},
        {.since_version = 24,
         .traits = kQuantization,
         .inputs = kInputs23,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", kT2Types24},
                         {"T3", kT3Types23}},
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear},
        {.since_version = 25,
         .traits = kQuantization,
         .inputs = kInputs23,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", kT2Types24},
                         {"T3",
                          tensor("int8 uint8 int16 uint16 float8e4m3fn float8e4m3fnuz float8e5m2 "
                                 "float8e5m2fnuz uint4 int4 float4e2m1 uint2 int2")}},
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear},
    }};
static_assert(isWellFormed(kQuantizeLinear));

}  // namespace onyx::ops::ai_onnx
