// Sigmoid (ai.onnx), versions 1, 6, 13.
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

// FLOAT as below, with vector_math's exp and without a branch.
ONYX_WIDER_VECTORS void sigmoidFloats(const float* from, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) to[i] = vector_math::sigmoidFloat(from[i]);
}

// 1 / (1 + e^-x), written so that neither exponential overflows.
Status runSigmoid(KernelContext& ctx) {
  return elementwise::unaryFloatArrayKernel(ctx, sigmoidFloats, [](auto x) {
    using T = decltype(x);
    if (x >= T(0)) return T(1) / (T(1) + std::exp(-x));
    T e = std::exp(x);
    return e / (T(1) + e);
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kSigmoid;
constexpr Operator kSigmoid{
    .domain = kOnnxDomain,
    .name = "Sigmoid",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runSigmoid},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runSigmoid,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .infer = inferSameShape,
         .kernel = runSigmoid,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kSigmoid));

}  // namespace onyx::ops::ai_onnx
