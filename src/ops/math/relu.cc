// Relu (ai.onnx), versions 1, 6, 13, 14.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/math/vector_math.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"
#include "ops/wider_vectors.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// FLOAT as below, the choice by a mask so that the loop vectorizes.
ONYX_WIDER_VECTORS void reluFloats(const float* from, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) to[i] = vector_math::select(from[i] < 0.0f, 0.0f, from[i]);
}

// max(x, 0); NaN stays NaN. The narrow floating types are computed in FLOAT.
Status runRelu(KernelContext& ctx) {
  auto relu = [](auto x) {
    using T = decltype(x);
    return x < T(0) ? T(0) : x;
  };
  const Array* x = ctx.inputArray(0);
  if (x != nullptr && (x->type() == ElementType::kFloat || isNarrowFloat(x->type()))) {
    return elementwise::unaryFloatArrayKernel(ctx, reluFloats, relu);
  }
  return elementwise::unaryArithmeticKernel(ctx, relu);
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

// Relu 14 as the spec defines it from opset 18: Max(X, 0).
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
Relu (X) => (Y) {
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  Y = Max (X, zero_x)
}
)ONNX";

extern const Operator kRelu;
constexpr Operator kRelu{
    .domain = kOnnxDomain,
    .name = "Relu",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferSameShape},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runRelu,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .infer = inferSameShape,
         .kernel = runRelu,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 14,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float int32 int8 int16 int64 float16 double bfloat16")}},
         .function_bodies = {{18, kBody18}},
         .infer = inferSameShape,
         .kernel = runRelu,
         .step = typesOnly("int8, int16, int32 and int64 added")},
    }};
static_assert(isWellFormed(kRelu));

}  // namespace onyx::ops::ai_onnx
