// HardSigmoid (ai.onnx), versions 1, 6, 22.
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

// FLOAT as below, the clamps by masks so that the loop vectorizes.
ONYX_WIDER_VECTORS void hardSigmoidFloats(const float* from, float* to, size_t count, float alpha,
                                          float beta) {
  for (size_t i = 0; i < count; ++i) {
    float y = alpha * from[i] + beta;
    y = vector_math::select(y < 0.0f, 0.0f, y);
    to[i] = vector_math::select(y > 1.0f, 1.0f, y);
  }
}

// clamp(alpha * x + beta, 0, 1); NaN stays NaN.
Status runHardSigmoid(KernelContext& ctx) {
  float alpha = ctx.floatAttribute("alpha").value_or(0.2f);
  float beta = ctx.floatAttribute("beta").value_or(0.5f);
  auto floats = [alpha, beta](const float* from, float* to, size_t count) {
    hardSigmoidFloats(from, to, count, alpha, beta);
  };
  return elementwise::unaryFloatArrayKernel(ctx, floats, [alpha, beta](auto x) {
    using T = decltype(x);
    T y = static_cast<T>(alpha) * x + static_cast<T>(beta);
    return y < T(0) ? T(0) : (y > T(1) ? T(1) : y);
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes6 = {attr("alpha", 0.2f), attr("beta", 0.5f)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

// HardSigmoid as the spec defines it (version 6 from opset 18): max(0, min(1, alpha * X + beta)).
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
HardSigmoid <alpha: float = 0.2, beta: float = 0.5> (X) => (Y) {
  alpha_f = Constant <value_float: float = @alpha> ()
  alpha_x = CastLike (alpha_f, X)
  beta_f = Constant <value_float: float = @beta> ()
  beta_x = CastLike (beta_f, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  one = Constant <value = float {1.0}> ()
  one_x = CastLike (one, X)
  alpha_times_x = Mul (X, alpha_x)
  line = Add (alpha_times_x, beta_x)
  capped = Min (line, one_x)
  Y = Max (capped, zero_x)
}
)ONNX";

extern const Operator kHardSigmoid;
constexpr Operator kHardSigmoid{
    .domain = kOnnxDomain,
    .name = "HardSigmoid",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("alpha", 0.2f), attr("beta", 0.5f), attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runHardSigmoid},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = kConstraints1,
         .function_bodies = {{18, kBody18}},
         .infer = inferSameShape,
         .kernel = runHardSigmoid,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 22,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .function_bodies = {{22, kBody18}},
         .infer = inferSameShape,
         .kernel = runHardSigmoid,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kHardSigmoid));

}  // namespace onyx::ops::ai_onnx
