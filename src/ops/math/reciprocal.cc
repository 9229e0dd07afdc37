// Reciprocal (ai.onnx), versions 1, 6, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runReciprocal(KernelContext& ctx) {
  return elementwise::unaryFloatingKernel(ctx, [](auto x) {
    using T = decltype(x);
    return T(1) / x;
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kReciprocal;
constexpr Operator kReciprocal{
    .domain = kOnnxDomain,
    .name = "Reciprocal",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runReciprocal},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runReciprocal,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .infer = inferSameShape,
         .kernel = runReciprocal,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kReciprocal));

}  // namespace onyx::ops::ai_onnx
