// Softplus (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/math/vector_math.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/wider_vectors.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// FLOAT as max(x, 0) + log(1 + e^-|x|), with vector_math's exp and log1p: e^-|x| is in
// [0, 1].
ONYX_WIDER_VECTORS void softplusFloats(const float* from, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float x = from[i];
    const float tail = vector_math::log1pUnitFloat(vector_math::expFloat(-std::fabs(x)));
    to[i] = vector_math::select(x > 0.0f, x, 0.0f) + tail;
  }
}

// log(1 + e^x), written so that the exponential does not overflow.
Status runSoftplus(KernelContext& ctx) {
  return elementwise::unaryFloatArrayKernel(ctx, softplusFloats, [](auto x) {
    using T = decltype(x);
    return x > T(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};

// Softplus as the spec defines it (version 1 from opset 18): log(exp(X) + 1).
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
Softplus (X) => (Y) {
  exp_x = Exp (X)
  one = Constant <value = float {1.0}> ()
  one_x = CastLike (one, X)
  exp_x_plus_one = Add (exp_x, one_x)
  Y = Log (exp_x_plus_one)
}
)ONNX";

extern const Operator kSoftplus;
constexpr Operator kSoftplus{.domain = kOnnxDomain,
                             .name = "Softplus",
                             .versions = {
                                 {.since_version = 1,
                                  .traits = kElementwise,
                                  .inputs = kInputs1,
                                  .outputs = kOutputs1,
                                  .constraints = {{"T", tensor("float16 float double")}},
                                  .function_bodies = {{18, kBody18}},
                                  .infer = inferSameShape,
                                  .kernel = runSoftplus},
                                 {.since_version = 22,
                                  .traits = kElementwise,
                                  .inputs = kInputs1,
                                  .outputs = kOutputs1,
                                  .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                                  .function_bodies = {{22, kBody18}},
                                  .infer = inferSameShape,
                                  .kernel = runSoftplus,
                                  .step = typesOnly("bfloat16 added")},
                             }};
static_assert(isWellFormed(kSoftplus));

}  // namespace onyx::ops::ai_onnx
