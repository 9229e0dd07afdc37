// Round (ai.onnx), versions 11, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Halves round to even (the default rounding mode of nearbyint).
Status runRound(KernelContext& ctx) {
  return elementwise::unaryFloatingKernel(ctx, [](auto x) { return std::nearbyint(x); });
}

}  // namespace

constexpr Formals kInputs11 = {{"X", "T"}};
constexpr Formals kOutputs11 = {{"Y", "T"}};

extern const Operator kRound;
constexpr Operator kRound{.domain = kOnnxDomain,
                          .name = "Round",
                          .versions = {
                              {.since_version = 11,
                               .traits = kElementwise,
                               .inputs = kInputs11,
                               .outputs = kOutputs11,
                               .constraints = {{"T", tensor("float16 float double")}},
                               .infer = inferSameShape,
                               .kernel = runRound},
                              {.since_version = 22,
                               .traits = kElementwise,
                               .inputs = kInputs11,
                               .outputs = kOutputs11,
                               .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                               .infer = inferSameShape,
                               .kernel = runRound,
                               .step = typesOnly("bfloat16 added")},
                          }};
static_assert(isWellFormed(kRound));

}  // namespace onyx::ops::ai_onnx
