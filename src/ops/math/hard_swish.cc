// HardSwish (ai.onnx), versions 14, 22.
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

// FLOAT as below, the clamps by masks so that the loop vectorizes.
ONYX_WIDER_VECTORS void hardSwishFloats(const float* from, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float x = from[i];
    float gate = x / 6.0f + 0.5f;
    gate = vector_math::select(gate < 0.0f, 0.0f, gate);
    gate = vector_math::select(gate > 1.0f, 1.0f, gate);
    to[i] = x * gate;
  }
}

// x * clamp(x / 6 + 1/2, 0, 1); NaN stays NaN.
Status runHardSwish(KernelContext& ctx) {
  return elementwise::unaryFloatArrayKernel(ctx, hardSwishFloats, [](auto x) {
    using T = decltype(x);
    T gate = x / T(6) + T(0.5);
    gate = gate < T(0) ? T(0) : (gate > T(1) ? T(1) : gate);
    return x * gate;
  });
}

}  // namespace

constexpr Formals kInputs14 = {{"X", "T"}};
constexpr Formals kOutputs14 = {{"Y", "T"}};

// HardSwish as the spec defines it: X * HardSigmoid(X) with alpha 1/6 and beta 0.5.
constexpr const char* kBody14 = R"ONNX(
<domain: "", opset_import: ["" : 14]>
HardSwish (X) => (Y) {
  gate = HardSigmoid <alpha = 0.16666667, beta = 0.5> (X)
  Y = Mul (X, gate)
}
)ONNX";

extern const Operator kHardSwish;
constexpr Operator kHardSwish{.domain = kOnnxDomain,
                              .name = "HardSwish",
                              .versions = {
                                  {.since_version = 14,
                                   .traits = kElementwise,
                                   .inputs = kInputs14,
                                   .outputs = kOutputs14,
                                   .constraints = {{"T", tensor("float16 float double")}},
                                   .function_bodies = {{14, kBody14}},
                                   .infer = inferSameShape,
                                   .kernel = runHardSwish},
                                  {.since_version = 22,
                                   .traits = kElementwise,
                                   .inputs = kInputs14,
                                   .outputs = kOutputs14,
                                   .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                                   .function_bodies = {{22, kBody14}},
                                   .infer = inferSameShape,
                                   .kernel = runHardSwish,
                                   .step = typesOnly("bfloat16 added")},
                              }};
static_assert(isWellFormed(kHardSwish));

}  // namespace onyx::ops::ai_onnx
