// LeakyRelu (ai.onnx), versions 1, 6, 16.
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
ONYX_WIDER_VECTORS void leakyReluFloats(const float* from, float* to, size_t count, float alpha) {
  for (size_t i = 0; i < count; ++i) {
    const float x = from[i];
    to[i] = vector_math::select(x < 0.0f, alpha * x, x);
  }
}

// alpha * x below 0, x elsewhere; NaN stays NaN.
Status runLeakyRelu(KernelContext& ctx) {
  float alpha = ctx.floatAttribute("alpha").value_or(0.01f);
  auto floats = [alpha](const float* from, float* to, size_t count) {
    leakyReluFloats(from, to, count, alpha);
  };
  return elementwise::unaryFloatArrayKernel(ctx, floats, [alpha](auto x) {
    using T = decltype(x);
    return x < T(0) ? static_cast<T>(alpha) * x : x;
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes6 = {attr("alpha", 0.01f)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

// LeakyRelu 16 as the spec defines it: alpha * X where X < 0, else X.
constexpr const char* kBody16 = R"ONNX(
<domain: "", opset_import: ["" : 16]>
LeakyRelu <alpha: float = 0.01> (X) => (Y) {
  alpha_f = Constant <value_float: float = @alpha> ()
  alpha_x = CastLike (alpha_f, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  negative = Less (X, zero_x)
  scaled = Mul (alpha_x, X)
  Y = Where (negative, scaled, X)
}
)ONNX";

extern const Operator kLeakyRelu;
constexpr Operator kLeakyRelu{
    .domain = kOnnxDomain,
    .name = "LeakyRelu",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("alpha", 0.01f), attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runLeakyRelu},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runLeakyRelu,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 16,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .function_bodies = {{16, kBody16}},
         .infer = inferSameShape,
         .kernel = runLeakyRelu,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kLeakyRelu));

}  // namespace onyx::ops::ai_onnx
