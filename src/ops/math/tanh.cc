// Tanh (ai.onnx), versions 1, 6, 13.
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

ONYX_WIDER_VECTORS void tanhFloats(const float* from, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) to[i] = vector_math::tanhFloat(from[i]);
}

// FLOAT through vector_math's tanh.
Status runTanh(KernelContext& ctx) {
  return elementwise::unaryFloatArrayKernel(ctx, tanhFloats, [](auto x) { return std::tanh(x); });
}

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kTanh;
constexpr Operator kTanh{
    .domain = kOnnxDomain,
    .name = "Tanh",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runTanh},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runTanh,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferSameShape,
         .kernel = runTanh,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kTanh));

}  // namespace onyx::ops::ai_onnx
