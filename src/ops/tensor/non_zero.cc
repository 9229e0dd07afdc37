// NonZero (ai.onnx), versions 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// One column per nonzero element: [rank, count], the count known only from the values.
void inferNonZero(InferenceContext& ctx) {
  std::optional<size_t> rank = ctx.inputRank(0);
  ctx.setOutputShape(0, {rank ? DimValue::known(static_cast<int64_t>(*rank)) : ctx.dims().fresh(),
                         ctx.dims().fresh()});
}

Status runNonZero(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  std::vector<size_t> hits;
  bool native = dispatchNative(data->type(), [&]<class T>() {
    const T* x = data->data<T>();
    for (size_t i = 0; i < data->size(); ++i) {
      if (x[i] != T{}) hits.push_back(i);
    }
  });
  if (!native) {
    if (data->isString()) {
      const std::vector<std::string>& x = data->strings();
      for (size_t i = 0; i < x.size(); ++i) {
        if (!x[i].empty()) hits.push_back(i);
      }
    } else {
      for (size_t i = 0; i < data->size(); ++i) {
        if (elementAsDouble(*data, i) != 0) hits.push_back(i);
      }
    }
  }
  size_t rank = data->rank();
  int64_t count = static_cast<int64_t>(hits.size());
  Array out(ElementType::kInt64, {static_cast<int64_t>(rank), count});
  int64_t* y = out.data<int64_t>();
  std::vector<int64_t> strides = denseStrides(data->shape());
  for (size_t j = 0; j < hits.size(); ++j) {
    int64_t rest = static_cast<int64_t>(hits[j]);
    for (size_t d = 0; d < rank; ++d) {
      y[d * hits.size() + j] = rest / strides[d];
      rest %= strides[d];
    }
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs9 = {{"X", "T"}};
constexpr Formals kOutputs9 = {{"Y", "tensor(int64)"}};

extern const Operator kNonZero;
constexpr Operator kNonZero{
    .domain = kOnnxDomain,
    .name = "NonZero",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferNonZero,
         .kernel = runNonZero},
        {.since_version = 13,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferNonZero,
         .kernel = runNonZero,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kNonZero));

}  // namespace onyx::ops::ai_onnx
