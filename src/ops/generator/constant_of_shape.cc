// ConstantOfShape (ai.onnx), versions 9, 20, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"
#include "ops/lib/generator_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The shape is the input's data; the element type the `value` tensor's (float without one).
// A vector of integers made this way keeps its elements as data.
void inferConstantOfShape(InferenceContext& ctx) {
  const Tensor* value = ctx.tensorAttribute("value");
  int32_t elem_type =
      value != nullptr ? value->data_type.value_or(0) : static_cast<int32_t>(ElementType::kFloat);
  if (elem_type != 0) ctx.setOutputElemType(0, elem_type);
  const Dims* shape = ctx.inputData(0);
  if (shape == nullptr) {
    if (const Dims* length = ctx.inputShape(0);
        length != nullptr && length->size() == 1 && length->front().isKnown() &&
        length->front().value() >= 0 && length->front().value() <= 1024) {
      ctx.setOutputRank(0, static_cast<size_t>(length->front().value()));
    }
    return;
  }
  for (DimValue dim : *shape) {
    if (dim.isKnown() && dim.value() < 0) {
      ctx.fail("ConstantOfShape's shape has a negative dimension (" + std::to_string(dim.value()) +
               ")");
      return;
    }
  }
  ctx.setOutputShape(0, *shape);
  if (shape->size() != 1 || !shape->front().isKnown() || !carriesData(elem_type)) return;
  std::optional<std::vector<double>> fill = constantNumbers(value);
  auto count = static_cast<size_t>(shape->front().value());
  if (!fill || fill->size() != 1 || count > kMaxPropagatedElements) return;
  ctx.setOutputData(0, Dims(count, DimValue::known(static_cast<int64_t>((*fill)[0]))));
}

Status runConstantOfShape(KernelContext& ctx) {
  std::string error;
  std::optional<std::vector<int64_t>> dims = generator::shapeFromInput(ctx.inputArray(0), error);
  if (!dims) return ctx.fail(error);
  Array value = Array::scalar<float>(ElementType::kFloat, 0.0f);
  if (const Tensor* attribute = ctx.tensorAttribute("value")) {
    Result<Array> read = arrayFromTensor(*attribute);
    if (!read) return read.status();
    if (read->size() != 1) return ctx.fail("`value` must hold one element");
    value = std::move(*read);
  }
  Result<Array> out = Array::allocate(value.type(), *dims);
  if (!out) return out.status();
  generator::fillWith(*out, value);
  ctx.setOutput(0, std::move(*out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs9 = {{"input", "T1"}};
constexpr Formals kOutputs9 = {{"output", "T2"}};
constexpr Attributes kAttributes9 = {attr("value", kTensor)};

extern const Operator kConstantOfShape;
constexpr Operator kConstantOfShape{
    .domain = kOnnxDomain,
    .name = "ConstantOfShape",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("int64")},
                         {"T2", tensor("float16 float double int8 int16 int32 int64 uint8 uint16 "
                                       "uint32 uint64 bool")}},
         .infer = inferConstantOfShape,
         .kernel = runConstantOfShape},
        {.since_version = 20,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints =
             {{"T1", tensor("int64")},
              {"T2",
               tensor("float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool "
                      "bfloat16 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz")}},
         .infer = inferConstantOfShape,
         .kernel = runConstantOfShape,
         .step = typesOnly("bfloat16 and float8 types added")},
        {.since_version = 21,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints =
             {{"T1", tensor("int64")},
              {"T2",
               tensor(
                   "float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 uint4 "
                   "int4 bool bfloat16 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz")}},
         .infer = inferConstantOfShape,
         .kernel = runConstantOfShape,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("int64")},
                         {"T2", tensor("float16 float double int8 int16 int32 int64 uint8 uint16 "
                                       "uint32 uint64 uint4 int4 bool bfloat16 float8e4m3fn "
                                       "float8e4m3fnuz float8e5m2 float8e5m2fnuz float4e2m1")}},
         .infer = inferConstantOfShape,
         .kernel = runConstantOfShape,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("int64")},
                         {"T2",
                          tensor("float16 float double int8 int16 int32 int64 uint8 uint16 uint32 "
                                 "uint64 uint4 int4 bool bfloat16 float8e4m3fn float8e4m3fnuz "
                                 "float8e5m2 float8e5m2fnuz float4e2m1 float8e8m0")}},
         .infer = inferConstantOfShape,
         .kernel = runConstantOfShape,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("int64")},
                         {"T2",
                          tensor("float16 float double int8 int16 int32 int64 uint8 uint16 uint32 "
                                 "uint64 uint4 int4 bool bfloat16 float8e4m3fn float8e4m3fnuz "
                                 "float8e5m2 float8e5m2fnuz float4e2m1 float8e8m0 uint2 int2")}},
         .infer = inferConstantOfShape,
         .kernel = runConstantOfShape,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kConstantOfShape));

}  // namespace onyx::ops::ai_onnx
