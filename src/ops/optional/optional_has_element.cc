// OptionalHasElement (ai.onnx), versions 15, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferOptionalHasElement(InferenceContext& ctx) { ctx.setOutputShape(0, {}); }

Status runOptionalHasElement(KernelContext& ctx) {
  const EvalValue* input = ctx.input(0);
  bool has = input != nullptr && input->kind != EvalValue::Kind::kNone;
  ctx.setOutput(0, Array::scalar(ElementType::kBool, has));
  return Status::ok();
}

}  // namespace

constexpr Formals kOutputs15 = {{"output", "B"}};

extern const Operator kOptionalHasElement;
constexpr Operator kOptionalHasElement{
    .domain = kOnnxDomain,
    .name = "OptionalHasElement",
    .versions = {
        {.since_version = 15,
         .inputs = {{"input", "O"}},
         .outputs = kOutputs15,
         .constraints = {{"O", optionalTensor(kIr3Types) | optionalSequence(kIr3Types)},
                         {"B", tensor("bool")}},
         .infer = inferOptionalHasElement,
         .kernel = runOptionalHasElement},
        {.since_version = 18,
         .inputs = {optional("input", "O")},
         .outputs = kOutputs15,
         .constraints = {{"O", tensor(kIr3Types) | sequence(kIr3Types) | optionalTensor(kIr3Types) |
                                   optionalSequence(kIr3Types)},
                         {"B", tensor("bool")}},
         .infer = inferOptionalHasElement,
         .kernel = runOptionalHasElement,
         .step = {.reviewed = true,
                  .change = "input optional (none: false); tensor and sequence inputs added (true)",
                  .down_refuses = "a node without input"}},
    }};
static_assert(isWellFormed(kOptionalHasElement));

}  // namespace onyx::ops::ai_onnx
