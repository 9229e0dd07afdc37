// Hardmax (ai.onnx), versions 1, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/math/math_shape.h"
#include "ops/math/softmax_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("axis", 1)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

namespace {

Status runHardmaxOld(KernelContext& ctx) {
  return runSoftmaxFamily<SoftmaxKind::kHardmax>(ctx, true);
}
Status runHardmax(KernelContext& ctx) {
  return runSoftmaxFamily<SoftmaxKind::kHardmax>(ctx, false);
}

}  // namespace

extern const Operator kHardmax;
constexpr Operator kHardmax{.domain = kOnnxDomain,
                            .name = "Hardmax",
                            .versions = {
                                {.since_version = 1,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = kConstraints1,
                                 .infer = inferSoftmaxFamily,
                                 .kernel = runHardmaxOld},
                                {.since_version = 11,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = kConstraints1,
                                 .infer = inferSoftmaxFamily,
                                 .kernel = runHardmaxOld},
                                {.since_version = 13,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = {attr("axis", -1)},
                                 .constraints = {{"T", tensor("float16 float double bfloat16")}},
                                 .infer = inferSoftmaxFamily,
                                 .kernel = runHardmax},
                            }};
static_assert(isWellFormed(kHardmax));

}  // namespace onyx::ops::ai_onnx
