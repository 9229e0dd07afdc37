// Mish (ai.onnx), versions 18, 22.
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

// FLOAT without a logarithm: with n = e^x, tanh(log(1 + n)) = n (n + 2) / (n (n + 2) + 2).
// Above 20 that is 1 in float (and n (n + 2) would overflow from 44 on).
ONYX_WIDER_VECTORS void mishFloats(const float* from, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float x = from[i];
    const float n = vector_math::expFloat(vector_math::select(x > 20.0f, 20.0f, x));
    const float p = n * (n + 2.0f);
    to[i] = x * vector_math::select(x > 20.0f, 1.0f, p / (p + 2.0f));
  }
}

// x * tanh(softplus(x)).
Status runMish(KernelContext& ctx) {
  return elementwise::unaryFloatArrayKernel(ctx, mishFloats, [](auto x) {
    using T = decltype(x);
    T softplus = x > T(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    return x * std::tanh(softplus);
  });
}

}  // namespace

constexpr Formals kInputs18 = {{"X", "T"}};
constexpr Formals kOutputs18 = {{"Y", "T"}};

// Mish as the spec defines it: X * tanh(softplus(X)).
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
Mish (X) => (Y) {
  soft = Softplus (X)
  squashed = Tanh (soft)
  Y = Mul (X, squashed)
}
)ONNX";

extern const Operator kMish;
constexpr Operator kMish{.domain = kOnnxDomain,
                         .name = "Mish",
                         .versions = {
                             {.since_version = 18,
                              .traits = kElementwise,
                              .inputs = kInputs18,
                              .outputs = kOutputs18,
                              .constraints = {{"T", tensor("float16 float double")}},
                              .function_bodies = {{18, kBody18}},
                              .infer = inferSameShape,
                              .kernel = runMish},
                             {.since_version = 22,
                              .traits = kElementwise,
                              .inputs = kInputs18,
                              .outputs = kOutputs18,
                              .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                              .function_bodies = {{22, kBody18}},
                              .infer = inferSameShape,
                              .kernel = runMish,
                              .step = typesOnly("bfloat16 added")},
                         }};
static_assert(isWellFormed(kMish));

}  // namespace onyx::ops::ai_onnx
