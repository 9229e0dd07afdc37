// Acosh (ai.onnx), versions 9, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runAcosh(KernelContext& ctx) {
  return elementwise::unaryFloatingKernel(ctx, [](auto x) { return std::acosh(x); });
}

}  // namespace

constexpr Formals kInputs9 = {{"input", "T"}};
constexpr Formals kOutputs9 = {{"output", "T"}};

extern const Operator kAcosh;
constexpr Operator kAcosh{.domain = kOnnxDomain,
                          .name = "Acosh",
                          .versions = {
                              {.since_version = 9,
                               .traits = kElementwise,
                               .inputs = kInputs9,
                               .outputs = kOutputs9,
                               .constraints = {{"T", tensor("float16 float double")}},
                               .infer = inferSameShape,
                               .kernel = runAcosh},
                              {.since_version = 22,
                               .traits = kElementwise,
                               .inputs = kInputs9,
                               .outputs = kOutputs9,
                               .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                               .infer = inferSameShape,
                               .kernel = runAcosh,
                               .step = typesOnly("bfloat16 added")},
                          }};
static_assert(isWellFormed(kAcosh));

}  // namespace onyx::ops::ai_onnx
