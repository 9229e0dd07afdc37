// DequantizeLinear (ai.onnx), versions 10, 13, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstdint>
#include <optional>

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

// y has x's shape; from version 23 its element type is output_dtype when set, else
// x_scale's.
void inferDequantizeLinear(InferenceContext& ctx) {
  inferSameShape(ctx);
  if (ctx.outputElemType(0) != 0) return;
  int64_t output_dtype = ctx.intAttribute("output_dtype").value_or(0);
  if (output_dtype > 0 && output_dtype <= 26) {
    ctx.setOutputElemType(0, static_cast<int32_t>(output_dtype));
  } else if (output_dtype == 0 && ctx.inputElemType(1) != 0) {
    ctx.setOutputElemType(0, ctx.inputElemType(1));
  }
}

Status runDequantizeLinear(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* scale = ctx.inputArray(1);
  const Array* zero = ctx.inputArray(2);
  if (x == nullptr || scale == nullptr) return ctx.fail("needs x and x_scale");
  const int version = ctx.schema().since_version;
  const bool float_input = isNarrowFloat(x->type());
  if (zero != nullptr) {
    if (zero->size() != scale->size()) {
      return ctx.fail("x_zero_point and x_scale differ in shape");
    }
    if (!float_input && zero->type() != x->type()) {
      return ctx.fail("x_zero_point and x differ in type");
    }
    if (float_input && x->type() != ElementType::kFloat4E2M1) {
      for (size_t i = 0; i < zero->size(); ++i) {
        if (elementAsDouble(*zero, i) != 0) return ctx.fail("a float8 x_zero_point must be 0");
      }
    }
  }
  ElementType out_type = version >= 19 ? scale->type() : ElementType::kFloat;
  if (version >= 23) {
    int64_t output_dtype = ctx.intAttribute("output_dtype").value_or(0);
    if (output_dtype != 0) {
      const ElementTypeInfo* info =
          output_dtype <= INT32_MAX ? elementTypeInfo(static_cast<int32_t>(output_dtype)) : nullptr;
      if (info == nullptr || !info->isFloatingPoint()) {
        return ctx.fail("output_dtype " + std::to_string(output_dtype) +
                        " is not a floating-point type");
      }
      out_type = info->type;
    }
  }
  int64_t block = version >= 21 ? ctx.intAttribute("block_size").value_or(0) : 0;
  if (block < 0) return ctx.fail("block_size is negative");
  if (version < 21 && scale->rank() > 1) return ctx.fail("x_scale must be a scalar or 1-D");
  std::string error;
  std::optional<quant::ScaleLayout> layout =
      quant::scaleLayout(x->shape(), *scale, ctx.intAttribute("axis").value_or(1), block, error);
  if (!layout) return ctx.fail(error);
  // uint8, int8 or int32 to FLOAT per tensor or per axis, in runs of one scale: the same
  // arithmetic as below, in loops that vectorize.
  const bool integer = x->type() == ElementType::kUint8 || x->type() == ElementType::kInt8 ||
                       x->type() == ElementType::kInt32;
  if (integer && scale->type() == ElementType::kFloat && out_type == ElementType::kFloat &&
      layout->mode != quant::ScaleLayout::Mode::kBlocked) {
    Result<Array> made = Array::allocate(ElementType::kFloat, x->shape());
    if (!made) return made.status();
    Array out = std::move(*made);
    size_t run = layout->mode == quant::ScaleLayout::Mode::kTensor ? x->size() : layout->inner;
    quant::forScaleRuns(ctx, x->size(), run, [&](size_t begin, size_t count) {
      size_t at = layout->index(begin);
      float factor = scale->data<float>()[at];
      double offset = zero != nullptr ? elementAsDouble(*zero, at) : 0.0;
      float* to = out.data<float>() + begin;
      switch (x->type()) {
        case ElementType::kUint8:
          quant::dequantizeToFloats(x->data<uint8_t>() + begin, count, factor,
                                    static_cast<float>(offset), to);
          break;
        case ElementType::kInt8:
          quant::dequantizeToFloats(x->data<int8_t>() + begin, count, factor,
                                    static_cast<float>(offset), to);
          break;
        default:
          quant::dequantizeToFloats(x->data<int32_t>() + begin, count, factor, offset, to);
          break;
      }
    });
    ctx.setOutput(0, std::move(out));
    return Status::ok();
  }
  // As the reference computes: in float, in double when x is INT32 (numpy's promotion).
  const bool wide = x->type() == ElementType::kInt32 || scale->type() == ElementType::kDouble;
  Array computed(wide ? ElementType::kDouble : ElementType::kFloat, x->shape());
  const bool subtract = zero != nullptr && (!float_input || x->type() == ElementType::kFloat4E2M1);
  for (size_t i = 0; i < x->size(); ++i) {
    size_t at = layout->index(i);
    double value = elementAsDouble(*x, i);
    if (subtract) value -= elementAsDouble(*zero, at);
    double product = value * elementAsDouble(*scale, at);
    if (wide) {
      computed.data<double>()[i] = product;
    } else {
      computed.data<float>()[i] = static_cast<float>(product);
    }
  }
  Result<Array> out = cast::castArray(computed, out_type, cast::CastOptions{});
  if (!out) return out.status();
  ctx.setOutput(0, std::move(*out));
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

Status dropBlockSize(NodeDraft& draft) {
  if (!blockSizeZero(draft)) return draft.refuse("block_size is not 0");
  draft.removeAttribute("block_size");
  return Status::ok();
}

// Down to version 21, where y takes x_scale's type: output_dtype must be 0 or that type.
Status dropOutputDtype(NodeDraft& draft) {
  if (draft.attribute("output_dtype") != nullptr) {
    std::optional<int64_t> output_dtype = draft.intAttr("output_dtype");
    std::optional<int32_t> scale = inputElementType(draft, 1);
    bool same = output_dtype && (*output_dtype == 0 || (scale && *output_dtype == *scale));
    if (!same) return draft.refuse("output_dtype is not known to be x_scale's type");
  }
  draft.removeAttribute("output_dtype");
  return Status::ok();
}

}  // namespace

constexpr TypeSet kT1Types23 = tensor(
    "int8 uint8 int16 uint16 int32 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz uint4 "
    "int4 float4e2m1");
constexpr TypeSet kT2Types24 = tensor("float float16 bfloat16 float8e8m0");
constexpr Formals kInputs10 = {
    {"x", "T"}, {"x_scale", "tensor(float)"}, optional("x_zero_point", "T")};
constexpr Formals kInputs19 = {{"x", "T1"}, {"x_scale", "T2"}, optional("x_zero_point", "T1")};
constexpr Formals kOutputs10 = {{"y", "tensor(float)"}};
constexpr Formals kOutputs19 = {{"y", "T2"}};
constexpr Formals kOutputs23 = {{"y", "T3"}};
constexpr Attributes kAttributes13 = {attr("axis", 1)};
constexpr Attributes kAttributes23 = {attr("axis", 1), attr("block_size", 0),
                                      attr("output_dtype", 0)};
constexpr Constraints kConstraints10 = {{"T", tensor("int8 uint8 int32")},
                                        {"tensor(float)", tensor("float")}};

extern const Operator kDequantizeLinear;
constexpr Operator kDequantizeLinear{
    .domain = kOnnxDomain,
    .name = "DequantizeLinear",
    .versions = {
        {.since_version = 10,
         .traits = kQuantization,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .constraints = kConstraints10,
         .infer = inferDequantizeLinear,
         .kernel = runDequantizeLinear},
        {.since_version = 13,
         .traits = kQuantization,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes13,
         .constraints = kConstraints10,
         .infer = inferDequantizeLinear,
         .kernel = runDequantizeLinear,
         .step = {.reviewed = true,
                  .change = "axis added: x_scale may be 1-D (per axis)",
                  .down = perTensorOnly,
                  .down_refuses = "x_scale not known to be one element"}},
        {.since_version = 19,
         .traits = kQuantization,
         .inputs = kInputs19,
         .outputs = kOutputs19,
         .attributes = kAttributes13,
         .constraints =
             {{"T1",
               tensor("int8 uint8 int32 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz")},
              {"T2", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear,
         .kernel = runDequantizeLinear,
         .step = typesOnly("float8 x types added; x_scale and y may be float16 or bfloat16")},
        {.since_version = 21,
         .traits = kQuantization,
         .inputs = kInputs19,
         .outputs = kOutputs19,
         .attributes = {attr("axis", 1), attr("block_size", 0)},
         .constraints = {{"T1", tensor("int8 uint8 int16 uint16 int32 float8e4m3fn float8e4m3fnuz "
                                       "float8e5m2 float8e5m2fnuz uint4 int4")},
                         {"T2", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear,
         .kernel = runDequantizeLinear,
         .step = {.reviewed = true,
                  .change =
                      "block_size added (0: not blocked); int16, uint16, int4 and uint4 added",
                  .down = dropBlockSize,
                  .down_refuses = "block_size other than 0"}},
        {.since_version = 23,
         .traits = kQuantization,
         .inputs = kInputs19,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", kT1Types23},
                         {"T2", tensor("float float16 bfloat16")},
                         {"T3", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear,
         .kernel = runDequantizeLinear,
         .step = {.reviewed = true,
                  .change = "output_dtype added (0: x_scale's type); float4e2m1 added",
                  .down = dropOutputDtype,
                  .down_refuses = "output_dtype not 0 or x_scale's type"}},
        {.since_version = 24,
         .traits = kQuantization,
         .inputs = kInputs19,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", kT1Types23},
                         {"T2", kT2Types24},
                         {"T3", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear,
         .kernel = runDequantizeLinear,
         .step = typesOnly("float8e8m0 x_scale added")},
        {.since_version = 25,
         .traits = kQuantization,
         .inputs = kInputs19,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1",
                          tensor("int8 uint8 int16 uint16 int32 float8e4m3fn float8e4m3fnuz "
                                 "float8e5m2 float8e5m2fnuz uint4 int4 float4e2m1 uint2 int2")},
                         {"T2", kT2Types24},
                         {"T3", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear,
         .kernel = runDequantizeLinear,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kDequantizeLinear));

}  // namespace onyx::ops::ai_onnx
