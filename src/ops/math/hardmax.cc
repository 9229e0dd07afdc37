// Hardmax (ai.onnx), versions 1, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstddef>
#include <cstdint>

#include "onyx/ir/type.h"
#include "ops/math/math_shape.h"
#include "ops/math/softmax_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/version_adapters.h"

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
constexpr Operator kHardmax{
    .domain = kOnnxDomain,
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
         .kernel = runHardmaxOld,
         .step = {.reviewed = true,
                  .change = "negative axis allowed",
                  .down = axisFromFront,
                  .down_refuses = "a negative axis, the input's rank unknown"}},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", -1)},
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .infer = inferSoftmaxFamily,
         .kernel = runHardmax,
         .step = {.reviewed = true,
                  .change = "along axis alone, not the 2-D coercion; axis default 1 became -1; "
                            "bfloat16 added",
                  .up = alongOneAxis,
                  .down = alongOneAxis,
                  .up_refuses = "axis not -1, a dimension after it not 1, the shape not static",
                  .down_refuses = "axis not -1 on an input of unknown rank"}},
    }};
static_assert(isWellFormed(kHardmax));

}  // namespace onyx::ops::ai_onnx
