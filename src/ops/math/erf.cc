// Erf (ai.onnx), versions 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/math/vector_math.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// FLOAT through vector_math's erf; integer inputs (version 9) are computed in DOUBLE and
// truncated back.
Status runErf(KernelContext& ctx) {
  return elementwise::unaryFloatArrayKernel<true>(ctx, vector_math::erfFloats,
                                                  [](auto x) { return std::erf(x); });
}

}  // namespace

constexpr Formals kInputs9 = {{"input", "T"}};
constexpr Formals kOutputs9 = {{"output", "T"}};

extern const Operator kErf;
constexpr Operator kErf{
    .domain = kOnnxDomain,
    .name = "Erf",
    .versions = {
        {.since_version = 9,
         .traits = kElementwise,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferSameShape,
         .kernel = runErf},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferSameShape,
         .kernel = runErf,
         .step = typesOnly("bfloat16 added; integer types removed")},
    }};
static_assert(isWellFormed(kErf));

}  // namespace onyx::ops::ai_onnx
