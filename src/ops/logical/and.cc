// And (ai.onnx), versions 1, 7.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>

#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runAnd(KernelContext& ctx) {
  return elementwise::booleanBinaryKernel(ctx, [](bool a, bool b) { return a && b; });
}

}  // namespace

constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"C", "T1"}};
constexpr Constraints kConstraints1 = {{"T", tensor("bool")}, {"T1", tensor("bool")}};

extern const Operator kAnd;
constexpr Operator kAnd{.domain = kOnnxDomain,
                        .name = "And",
                        .versions = {
                            {.since_version = 1,
                             .inputs = kInputs1,
                             .outputs = kOutputs1,
                             .attributes = {attr("axis", kInt), attr("broadcast", 0)},
                             .constraints = kConstraints1,
                             .infer = inferSameShape,
                             .kernel = runAnd},
                            {.since_version = 7,
                             .traits = kElementwise | kCommutative,
                             .inputs = kInputs1,
                             .outputs = kOutputs1,
                             .constraints = kConstraints1,
                             .infer = inferBroadcast,
                             .kernel = runAnd,
                             .step = kNumpyBroadcastStep},
                        }};
static_assert(isWellFormed(kAnd));

}  // namespace onyx::ops::ai_onnx
