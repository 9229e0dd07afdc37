// Size (ai.onnx), versions 1, 13, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferSize(InferenceContext& ctx) {
  ctx.setOutputShape(0, {});
  if (const Dims* in = ctx.inputShape(0)) ctx.setOutputData(0, {productOf(ctx, *in)});
}

Status runSize(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  ctx.setOutput(0, Array::scalar<int64_t>(ElementType::kInt64, static_cast<int64_t>(x->size())));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kOutputs1 = {{"size", "T1"}};

extern const Operator kSize;
constexpr Operator kSize{.domain = kOnnxDomain,
                         .name = "Size",
                         .versions = {
                             {.since_version = 1,
                              .traits = kReadsShape,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .constraints = {{"T", tensor(kIr3Types)}, {"T1", tensor("int64")}},
                              .infer = inferSize,
                              .kernel = runSize},
                             {.since_version = 13,
                              .traits = kReadsShape,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .constraints = {{"T", tensor(kIr4Types)}, {"T1", tensor("int64")}},
                              .infer = inferSize,
                              .kernel = runSize,
                              .step = typesOnly("bfloat16 added")},
                             {.since_version = 19,
                              .traits = kReadsShape,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .constraints = {{"T", tensor(kIr9Types)}, {"T1", tensor("int64")}},
                              .infer = inferSize,
                              .kernel = runSize,
                              .step = typesOnly("float8 types added")},
                             {.since_version = 21,
                              .traits = kReadsShape,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .constraints = {{"T", tensor(kIr10Types)}, {"T1", tensor("int64")}},
                              .infer = inferSize,
                              .kernel = runSize,
                              .step = typesOnly("int4 and uint4 added")},
                             {.since_version = 23,
                              .traits = kReadsShape,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .constraints = {{"T", tensor(kIr11Types)}, {"T1", tensor("int64")}},
                              .infer = inferSize,
                              .kernel = runSize,
                              .step = typesOnly("float4e2m1 added")},
                             {.since_version = 24,
                              .traits = kReadsShape,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .constraints = {{"T", tensor(kIr12Types)}, {"T1", tensor("int64")}},
                              .infer = inferSize,
                              .kernel = runSize,
                              .step = typesOnly("float8e8m0 added")},
                             {.since_version = 25,
                              .traits = kReadsShape,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .constraints = {{"T", tensor(kIr13Types)}, {"T1", tensor("int64")}},
                              .infer = inferSize,
                              .kernel = runSize,
                              .step = typesOnly("int2 and uint2 added")},
                         }};
static_assert(isWellFormed(kSize));

}  // namespace onyx::ops::ai_onnx
