// Asin (ai.onnx), versions 7, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runAsin(KernelContext& ctx) {
  return elementwise::unaryFloatingKernel(ctx, [](auto x) { return std::asin(x); });
}

}  // namespace

constexpr Formals kInputs7 = {{"input", "T"}};
constexpr Formals kOutputs7 = {{"output", "T"}};

extern const Operator kAsin;
constexpr Operator kAsin{.domain = kOnnxDomain,
                         .name = "Asin",
                         .versions = {
                             {.since_version = 7,
                              .traits = kElementwise,
                              .inputs = kInputs7,
                              .outputs = kOutputs7,
                              .constraints = {{"T", tensor("float16 float double")}},
                              .infer = inferSameShape,
                              .kernel = runAsin},
                             {.since_version = 22,
                              .traits = kElementwise,
                              .inputs = kInputs7,
                              .outputs = kOutputs7,
                              .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                              .infer = inferSameShape,
                              .kernel = runAsin,
                              .step = typesOnly("bfloat16 added")},
                         }};
static_assert(isWellFormed(kAsin));

}  // namespace onyx::ops::ai_onnx
