// Atan (ai.onnx), versions 7, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runAtan(KernelContext& ctx) {
  return elementwise::unaryFloatingKernel(ctx, [](auto x) { return std::atan(x); });
}

}  // namespace

constexpr Formals kInputs7 = {{"input", "T"}};
constexpr Formals kOutputs7 = {{"output", "T"}};

extern const Operator kAtan;
constexpr Operator kAtan{.domain = kOnnxDomain,
                         .name = "Atan",
                         .versions = {
                             {.since_version = 7,
                              .traits = kElementwise,
                              .inputs = kInputs7,
                              .outputs = kOutputs7,
                              .constraints = {{"T", tensor("float16 float double")}},
                              .infer = inferSameShape,
                              .kernel = runAtan},
                             {.since_version = 22,
                              .traits = kElementwise,
                              .inputs = kInputs7,
                              .outputs = kOutputs7,
                              .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                              .infer = inferSameShape,
                              .kernel = runAtan,
                              .step = typesOnly("bfloat16 added")},
                         }};
static_assert(isWellFormed(kAtan));

}  // namespace onyx::ops::ai_onnx
