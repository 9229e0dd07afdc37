// OptionalGetElement (ai.onnx), versions 15, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The optional's element; a tensor or sequence input (version 18) passes through.
void inferOptionalGetElement(InferenceContext& ctx) {
  const InferredType* type = ctx.inputType(0);
  if (type == nullptr) return;
  if (type->kind == InferredType::Kind::kOptional) {
    if (type->elem != nullptr && type->elem->isKnown()) ctx.setOutputType(0, *type->elem);
    return;
  }
  if (ctx.schema().since_version >= 18) ctx.setOutputType(0, *type);
}

Status runOptionalGetElement(KernelContext& ctx) {
  const EvalValue* input = ctx.input(0);
  if (input == nullptr || input->kind == EvalValue::Kind::kNone) {
    return ctx.fail("the optional input holds no value");
  }
  ctx.setOutput(0, *input);
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs15 = {{"input", "O"}};
constexpr Formals kOutputs15 = {{"output", "V"}};

extern const Operator kOptionalGetElement;
constexpr Operator kOptionalGetElement{
    .domain = kOnnxDomain,
    .name = "OptionalGetElement",
    .versions = {
        {.since_version = 15,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .constraints = {{"O", optionalTensor(kIr3Types) | optionalSequence(kIr3Types)},
                         {"V", tensor(kIr3Types) | sequence(kIr3Types)}},
         .infer = inferOptionalGetElement,
         .kernel = runOptionalGetElement},
        {.since_version = 18,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .constraints = {{"O", tensor(kIr3Types) | sequence(kIr3Types) | optionalTensor(kIr3Types) |
                                   optionalSequence(kIr3Types)},
                         {"V", tensor(kIr3Types) | sequence(kIr3Types)}},
         .infer = inferOptionalGetElement,
         .kernel = runOptionalGetElement,
         .step = typesOnly("tensor and sequence inputs added (returned as they are)")},
    }};
static_assert(isWellFormed(kOptionalGetElement));

}  // namespace onyx::ops::ai_onnx
