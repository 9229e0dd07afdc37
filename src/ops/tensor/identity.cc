// Identity (ai.onnx), versions 1, 13, 14, 16, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Identity-14 and later also pass sequences and optionals through.
void inferIdentity(InferenceContext& ctx) {
  const InferredType* in = ctx.inputType(0);
  if (in == nullptr) return;
  ctx.setOutputType(0, *in);
  if (const Dims* data = ctx.inputData(0)) ctx.setOutputData(0, *data);
}

Status runIdentity(KernelContext& ctx) {
  if (const EvalValue* x = ctx.input(0)) ctx.setOutput(0, *x);
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kInputs14 = {{"input", "V"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Formals kOutputs14 = {{"output", "V"}};

extern const Operator kIdentity;
constexpr Operator kIdentity{
    .domain = kOnnxDomain,
    .name = "Identity",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr3Types)}},
         .infer = inferIdentity,
         .kernel = runIdentity},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr4Types)}},
         .infer = inferIdentity,
         .kernel = runIdentity,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 14,
         .traits = kElementwise,
         .inputs = kInputs14,
         .outputs = kOutputs14,
         .constraints = {{"V", tensor(kIr4Types) | sequence(kIr3Types)}},
         .infer = inferIdentity,
         .kernel = runIdentity,
         .step = typesOnly("sequence types added")},
        {.since_version = 16,
         .traits = kElementwise,
         .inputs = kInputs14,
         .outputs = kOutputs14,
         .constraints = {{"V", tensor(kIr4Types) | sequence(kIr3Types) | optionalTensor(kIr3Types) |
                                   optionalSequence(kIr3Types)}},
         .infer = inferIdentity,
         .kernel = runIdentity,
         .step = typesOnly("optional types added")},
        {.since_version = 19,
         .traits = kElementwise,
         .inputs = kInputs14,
         .outputs = kOutputs14,
         .constraints = {{"V", tensor(kIr9Types) | sequence(kIr3Types) | optionalTensor(kIr3Types) |
                                   optionalSequence(kIr3Types)}},
         .infer = inferIdentity,
         .kernel = runIdentity,
         .step = typesOnly("float8 types added")},
        {.since_version = 21,
         .traits = kElementwise,
         .inputs = kInputs14,
         .outputs = kOutputs14,
         .constraints = {{"V", tensor(kIr10Types) | sequence(kIr3Types) |
                                   optionalTensor(kIr3Types) | optionalSequence(kIr3Types)}},
         .infer = inferIdentity,
         .kernel = runIdentity,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .traits = kElementwise,
         .inputs = kInputs14,
         .outputs = kOutputs14,
         .constraints = {{"V", tensor(kIr11Types) | sequence(kIr3Types) |
                                   optionalTensor(kIr3Types) | optionalSequence(kIr3Types)}},
         .infer = inferIdentity,
         .kernel = runIdentity,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .traits = kElementwise,
         .inputs = kInputs14,
         .outputs = kOutputs14,
         .constraints = {{"V", tensor(kIr12Types) | sequence(kIr3Types) |
                                   optionalTensor(kIr3Types) | optionalSequence(kIr3Types)}},
         .infer = inferIdentity,
         .kernel = runIdentity,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .traits = kElementwise,
         .inputs = kInputs14,
         .outputs = kOutputs14,
         .constraints = {{"V", tensor(kIr13Types) | sequence(kIr3Types) |
                                   optionalTensor(kIr3Types) | optionalSequence(kIr3Types)}},
         .infer = inferIdentity,
         .kernel = runIdentity,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kIdentity));

}  // namespace onyx::ops::ai_onnx
