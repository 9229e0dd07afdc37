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

// The value comes from exactly one attribute; onnx's Constant inference refuses a node with
// none or several (onnx/defs/generator/utils.cc).
void inferConstant(InferenceContext& ctx) {
  int given = 0;
  for (const char* name : {"value", "value_int", "value_ints", "value_float", "value_floats",
                           "value_string", "value_strings", "sparse_value"}) {
    if (ctx.attribute(name) != nullptr) ++given;
  }
  if (given != 1) {
    ctx.fail("Constant has " + std::to_string(given) +
             " value attributes; it takes exactly one of value, value_int, value_ints, "
             "value_float, value_floats, value_string, value_strings and sparse_value");
    return;
  }
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
    vector(kString, strings->rare().strings.size());
  } else if (const Attribute* sparse = ctx.attribute("sparse_value");
             sparse != nullptr && sparse->rare().sparse_tensor != nullptr) {
    Dims dims;
    for (int64_t dim : sparse->rare().sparse_tensor->dims) dims.push_back(DimValue::known(dim));
    const Tensor* nonzero = sparse->rare().sparse_tensor->values;
    ctx.setOutputTensor(0, nonzero != nullptr ? nonzero->data_type.value_or(0) : 0,
                        std::move(dims));
  }
}

// The sparse_value form: a dense tensor of the sparse tensor's dims, zero but at the listed
// indices (INT64, either [N] linear indices or [N, rank] coordinates).
Result<Array> densify(const KernelContext& ctx, const SparseTensor& sparse) {
  if (sparse.values == nullptr || sparse.indices == nullptr) {
    return ctx.fail("sparse_value needs values and indices");
  }
  Result<Array> values = arrayFromTensor(*sparse.values);
  if (!values) return values.status();
  Result<Array> indices = arrayFromTensor(*sparse.indices);
  if (!indices) return indices.status();
  std::vector<int64_t> dims(sparse.dims.begin(), sparse.dims.end());
  for (int64_t dim : dims) {
    if (dim < 0) return ctx.fail("sparse_value has a negative dimension");
  }
  Result<Array> made = Array::allocate(values->type(), dims);
  if (!made) return made.status();
  Array out = std::move(*made);
  if (!out.isString()) {
    std::span<std::byte> bytes = out.bytes();
    std::fill(bytes.begin(), bytes.end(), std::byte{0});
  }
  std::optional<std::vector<int64_t>> where = integersOf(*indices);
  if (!where) return ctx.fail("sparse_value's indices must be INT64");
  size_t count = values->size();
  size_t rank = dims.size();
  bool linear = indices->rank() == 1;
  if (linear ? indices->size() != count
             : indices->rank() != 2 || static_cast<size_t>(indices->dim(0)) != count ||
                   static_cast<size_t>(indices->dim(1)) != rank) {
    return ctx.fail("sparse_value's indices do not match its values and dims");
  }
  std::vector<size_t> strides = stridesOf(dims);
  for (size_t k = 0; k < count; ++k) {
    int64_t flat = 0;
    if (linear) {
      flat = (*where)[k];
      if (flat < 0 || static_cast<size_t>(flat) >= out.size()) {
        return ctx.fail("sparse_value has an index out of range");
      }
    } else {
      for (size_t axis = 0; axis < rank; ++axis) {
        int64_t at = (*where)[k * rank + axis];
        if (at < 0 || at >= dims[axis]) return ctx.fail("sparse_value has an index out of range");
        flat += at * static_cast<int64_t>(strides[axis]);
      }
    }
    copyElements(*values, k, out, static_cast<size_t>(flat), 1);
  }
  return out;
}

Status runConstant(KernelContext& ctx) {
  Result<Array> out = Array();
  if (const Tensor* value = ctx.tensorAttribute("value")) {
    out = arrayFromTensor(*value);
  } else if (std::optional<int64_t> integer = ctx.intAttribute("value_int")) {
    out = Array::scalar<int64_t>(ElementType::kInt64, *integer);
  } else if (std::optional<std::vector<int64_t>> integers = ctx.intsAttribute("value_ints")) {
    out = int64Array(*integers, {static_cast<int64_t>(integers->size())});
  } else if (std::optional<float> real = ctx.floatAttribute("value_float")) {
    out = Array::scalar<float>(ElementType::kFloat, *real);
  } else if (std::optional<std::vector<float>> reals = ctx.floatsAttribute("value_floats")) {
    Array array(ElementType::kFloat, {static_cast<int64_t>(reals->size())});
    std::copy(reals->begin(), reals->end(), array.data<float>());
    out = std::move(array);
  } else if (std::optional<std::string_view> text = ctx.stringAttribute("value_string")) {
    Array array(ElementType::kString, {});
    array.strings()[0] = std::string(*text);
    out = std::move(array);
  } else if (const Attribute* texts = ctx.attribute("value_strings")) {
    size_t count = texts->rare().strings.size();
    Array array(ElementType::kString, {static_cast<int64_t>(count)});
    for (size_t i = 0; i < count; ++i) array.strings()[i] = std::string(texts->rare().strings[i]);
    out = std::move(array);
  } else if (const Attribute* sparse = ctx.attribute("sparse_value");
             sparse != nullptr && sparse->rare().sparse_tensor != nullptr) {
    out = densify(ctx, *sparse->rare().sparse_tensor);
  } else {
    return ctx.fail(
        "has none of value, value_float(s), value_int(s), value_string(s), "
        "sparse_value");
  }
  if (!out) return out.status();
  ctx.setOutput(0, std::move(*out));
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
         .kernel = runConstant,
         .step = typesOnly("integer, bool, string and complex types added")},
        {.since_version = 11,
         .outputs = kOutputs1,
         .attributes = {attr("sparse_value", kSparseTensor), attr("value", kTensor)},
         .constraints = kConstraints9,
         .infer = inferConstant,
         .kernel = runConstant,
         .step = {.reviewed = true,
                  .change = "sparse_value added; value optional",
                  .down_refuses = "nodes with sparse_value"}},
        {.since_version = 12,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = kConstraints9,
         .infer = inferConstant,
         .kernel = runConstant,
         .step = {.reviewed = true,
                  .change = "value_float(s), value_int(s) and value_string(s) added",
                  .down_refuses = "nodes with a value_* attribute"}},
        {.since_version = 13,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr4Types)}},
         .infer = inferConstant,
         .kernel = runConstant,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 19,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr9Types)}},
         .infer = inferConstant,
         .kernel = runConstant,
         .step = typesOnly("float8 types added")},
        {.since_version = 21,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr10Types)}},
         .infer = inferConstant,
         .kernel = runConstant,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr11Types)}},
         .infer = inferConstant,
         .kernel = runConstant,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr12Types)}},
         .infer = inferConstant,
         .kernel = runConstant,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr13Types)}},
         .infer = inferConstant,
         .kernel = runConstant,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kConstant));

}  // namespace onyx::ops::ai_onnx
