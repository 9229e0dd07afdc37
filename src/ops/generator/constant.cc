// Constant (ai.onnx), versions 1, 9, 11, 12, 13, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"
#include "ops/kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferConstant(InferenceContext& ctx) {
  auto scalar = [&](int32_t elem_type) { ctx.setOutputTensor(0, elem_type, {}); };
  auto vector = [&](int32_t elem_type, size_t count) {
    ctx.setOutputTensor(0, elem_type, {DimValue::known(static_cast<int64_t>(count))});
  };
  if (const Tensor* value = ctx.tensorAttribute("value")) {
    Dims dims;
    for (int64_t dim : value->dims) dims.push_back(DimValue::known(dim));
    ctx.setOutputTensor(0, value->data_type.value_or(0), std::move(dims));
    ctx.setOutputConstant(0, value);
    return;
  }
  constexpr int32_t kFloat = 1, kInt64 = 7, kString = 8;
  if (std::optional<int64_t> value = ctx.intAttribute("value_int")) {
    scalar(kInt64);
    ctx.setOutputData(0, {DimValue::known(*value)});
  } else if (std::optional<std::vector<int64_t>> values = ctx.intsAttribute("value_ints")) {
    vector(kInt64, values->size());
    Dims data;
    for (int64_t v : *values) data.push_back(DimValue::known(v));
    ctx.setOutputData(0, std::move(data));
  } else if (ctx.floatAttribute("value_float")) {
    scalar(kFloat);
  } else if (std::optional<std::vector<float>> floats = ctx.floatsAttribute("value_floats")) {
    vector(kFloat, floats->size());
  } else if (ctx.stringAttribute("value_string")) {
    scalar(kString);
  } else if (const Attribute* strings = ctx.attribute("value_strings")) {
    vector(kString, strings->lists != nullptr ? strings->lists->strings.size() : 0);
  } else if (const Attribute* sparse = ctx.attribute("sparse_value");
             sparse != nullptr && sparse->sparse_tensor != nullptr) {
    Dims dims;
    for (int64_t dim : sparse->sparse_tensor->dims) dims.push_back(DimValue::known(dim));
    const Tensor* nonzero = sparse->sparse_tensor->values;
    ctx.setOutputTensor(0, nonzero != nullptr ? nonzero->data_type.value_or(0) : 0,
                        std::move(dims));
  }
}

Status runConstant(KernelContext& ctx) {
  const Tensor* value = ctx.tensorAttribute("value");
  if (value == nullptr) return ctx.fail("only the `value` form runs yet");
  Result<Array> array = arrayFromTensor(*value);
  if (!array) return array.status();
  ctx.setOutput(0, std::move(*array));
  return Status::ok();
}

}  // namespace

constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {required("value", kTensor)};
constexpr Attributes kAttributes12 = {attr("sparse_value", kSparseTensor),
                                      attr("value", kTensor),
                                      attr("value_float", kFloat),
                                      attr("value_floats", kFloats),
                                      attr("value_int", kInt),
                                      attr("value_ints", kInts),
                                      attr("value_string", kString),
                                      attr("value_strings", kStrings)};
constexpr Constraints kConstraints9 = {{"T", tensor(kIr3Types)}};

extern const Operator kConstant;
constexpr Operator kConstant{
    .domain = kOnnxDomain,
    .name = "Constant",
    .versions = {
        {.since_version = 1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferConstant,
         .kernel = runConstant},
        {.since_version = 9,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints9,
         .infer = inferConstant,
         .kernel = runConstant},
        {.since_version = 11,
         .outputs = kOutputs1,
         .attributes = {attr("sparse_value", kSparseTensor), attr("value", kTensor)},
         .constraints = kConstraints9,
         .infer = inferConstant,
         .kernel = runConstant},
        {.since_version = 12,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = kConstraints9,
         .infer = inferConstant,
         .kernel = runConstant},
        {.since_version = 13,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr4Types)}},
         .infer = inferConstant,
         .kernel = runConstant},
        {.since_version = 19,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr9Types)}},
         .infer = inferConstant,
         .kernel = runConstant},
        {.since_version = 21,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr10Types)}},
         .infer = inferConstant,
         .kernel = runConstant},
        {.since_version = 23,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr11Types)}},
         .infer = inferConstant,
         .kernel = runConstant},
        {.since_version = 24,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr12Types)}},
         .infer = inferConstant,
         .kernel = runConstant},
        {.since_version = 25,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr13Types)}},
         .infer = inferConstant,
         .kernel = runConstant},
    }};
static_assert(isWellFormed(kConstant));

}  // namespace onyx::ops::ai_onnx
