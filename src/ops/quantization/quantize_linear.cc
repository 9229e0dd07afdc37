// QuantizeLinear (ai.onnx), versions 10, 13, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/type.h"
#include "ops/kernels.h"
#include "ops/lib/cast_kernels.h"
#include "ops/lib/quantization_kernels.h"
#include "ops/node_draft.h"
#include "ops/quantization/quantize_floats.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// y has x's shape. Its element type is y_zero_point's (the signature gives it), else
// output_dtype (version 21 on) when set, else uint8.
void inferQuantizeLinear(InferenceContext& ctx) {
  int64_t output_dtype = ctx.intAttribute("output_dtype").value_or(0);
  // output_dtype, where given, names y_zero_point's type; onnx's QuantizeLinear inference
  // refuses the two disagreeing (onnx/defs/quantization/defs.cc).
  if (int32_t zero_point = ctx.hasInput(2) ? ctx.inputElemType(2) : 0;
      zero_point != 0 && output_dtype != 0 && output_dtype != zero_point) {
    std::string named = output_dtype > 0 && output_dtype <= 26
                            ? std::string(elementTypeName(static_cast<int32_t>(output_dtype)))
                            : std::to_string(output_dtype);
    ctx.fail("output_dtype is " + named + " but y_zero_point is " +
             std::string(elementTypeName(zero_point)) + "; both name the type of y");
    return;
  }
  inferSameShape(ctx);
  if (ctx.hasInput(2) && ctx.inputElemType(2) != 0) return;
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
  // FLOAT to uint8 or int8 per tensor or per axis, in runs of one scale: the same arithmetic
  // as below (a float quotient, rounded half to even, plus the zero point, clamped), in loops
  // that vectorize.
  bool bytes = out_type == ElementType::kUint8 || out_type == ElementType::kInt8;
  if (bytes && x->type() == ElementType::kFloat && scale->type() == ElementType::kFloat &&
      division == ElementType::kFloat && layout->mode != quant::ScaleLayout::Mode::kBlocked) {
    size_t run = layout->mode == quant::ScaleLayout::Mode::kTensor ? x->size() : layout->inner;
    quant::forScaleRuns(ctx, x->size(), run, [&](size_t begin, size_t count) {
      size_t at = layout->index(begin);
      float divisor = scale->data<float>()[at];
      float offset = zero != nullptr ? static_cast<float>(elementAsDouble(*zero, at)) : 0.0f;
      const float* from = x->data<float>() + begin;
      if (out_type == ElementType::kUint8) {
        quant::quantizeFloatsToUint8(from, count, divisor, offset, out.data<uint8_t>() + begin);
      } else {
        quant::quantizeFloatsToInt8(from, count, divisor, offset, out.data<int8_t>() + begin);
      }
    });
    ctx.setOutput(0, std::move(out));
    return Status::ok();
  }
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

// The element type of input `i` when known (a TensorProto.DataType code).
std::optional<int32_t> inputElementType(const NodeDraft& draft, size_t i) {
  const Type* type = draft.inputType(i);
  if (type == nullptr || !type->isTensor()) return std::nullopt;
  return type->elem_type;
}

// Down to version 19, which has no blocked quantization: block_size must be 0.
bool blockSizeZero(const NodeDraft& draft) {
  if (draft.attribute("block_size") == nullptr) return true;
  std::optional<int64_t> block_size = draft.intAttr("block_size");
  return block_size && *block_size == 0;
}

// Up to version 19, where y_scale has x's type: version 13's y_scale is float, so x must be
// float too.
Status scaleTypeOfX(NodeDraft& draft) {
  std::optional<int32_t> x = inputElementType(draft, 0);
  if (x != static_cast<int32_t>(ElementType::kFloat)) {
    return draft.refuse("x is not known to be float, y_scale's type");
  }
  return Status::ok();
}

// Down to version 19: no blocked quantization, and y takes y_zero_point's type, else uint8.
// output_dtype is then redundant, or must be uint8.
Status dropBlockSizeAndOutputDtype(NodeDraft& draft) {
  if (!blockSizeZero(draft)) return draft.refuse("block_size is not 0");
  if (draft.attribute("output_dtype") != nullptr) {
    std::optional<int64_t> output_dtype = draft.intAttr("output_dtype");
    if (!output_dtype) return draft.refuse("output_dtype has no value of its own");
    bool redundant = *output_dtype == 0 || draft.hasInput(2) ||
                     *output_dtype == static_cast<int64_t>(ElementType::kUint8);
    if (!redundant) return draft.refuse("output_dtype other than uint8 without y_zero_point");
  }
  draft.removeAttribute("block_size");
  draft.removeAttribute("output_dtype");
  return Status::ok();
}

// Down to version 21, where y_scale has x's type and the division is done in it: the two
// types must be known to agree, and precision must be 0 or that type.
Status scaleAndPrecisionOfX(NodeDraft& draft) {
  std::optional<int32_t> x = inputElementType(draft, 0);
  std::optional<int32_t> scale = inputElementType(draft, 1);
  if (!x || !scale || *x != *scale) {
    return draft.refuse("x and y_scale are not known to have one type");
  }
  if (draft.attribute("precision") != nullptr) {
    std::optional<int64_t> precision = draft.intAttr("precision");
    if (!precision || (*precision != 0 && *precision != *scale)) {
      return draft.refuse("precision is not 0 or y_scale's type");
    }
  }
  draft.removeAttribute("precision");
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
         .kernel = runQuantizeLinear,
         .step = {.reviewed = true,
                  .change = "axis added: y_scale may be 1-D (per axis)",
                  .down = perTensorOnly,
                  .down_refuses = "y_scale not known to be one element"}},
        {.since_version = 19,
         .traits = kQuantization,
         .inputs = kInputs19,
         .outputs = kOutputs10,
         .attributes = {attr("axis", 1), attr("saturate", 1)},
         .constraints =
             {{"T1", tensor("float float16 bfloat16 int32")},
              {"T2", tensor("int8 uint8 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz")}},
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear,
         .step = {.reviewed = true,
                  .change = "saturate added (float8 only); float16 and bfloat16 x, float8 y added; "
                            "y_scale takes x's type",
                  .up = scaleTypeOfX,
                  .down = dropSaturate,
                  .up_refuses = "x not known to be float"}},
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
         .kernel = runQuantizeLinear,
         .step =
             {.reviewed = true,
              .change = "block_size (0: not blocked) and output_dtype added; int16, uint16, int4 "
                        "and uint4 added",
              .down = dropBlockSizeAndOutputDtype,
              .down_refuses =
                  "block_size other than 0; output_dtype other than uint8 without y_zero_point"}},
        {.since_version = 23,
         .traits = kQuantization,
         .inputs = kInputs23,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", tensor("float float16 bfloat16 int32")},
                         {"T3", kT3Types23}},
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear,
         .step = {.reviewed = true,
                  .change = "y_scale may differ from x in type; precision added; float4e2m1 added",
                  .down = scaleAndPrecisionOfX,
                  .down_refuses =
                      "x and y_scale not known to have one type; precision not 0 or their type"}},
        {.since_version = 24,
         .traits = kQuantization,
         .inputs = kInputs23,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", kT2Types24},
                         {"T3", kT3Types23}},
         .infer = inferQuantizeLinear,
         .kernel = runQuantizeLinear,
         .step = typesOnly("float8e8m0 y_scale added")},
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
         .kernel = runQuantizeLinear,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kQuantizeLinear));

}  // namespace onyx::ops::ai_onnx
