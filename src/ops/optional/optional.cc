// Optional (ai.onnx), versions 15.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ir/attribute.h"
#include "onyx/ops/inference_context.h"
#include "ops/kernels.h"
#include "ops/schema_dsl.h"
#include "ops/type_conversion.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// An optional of the input's type, or, without an input, of the `type` attribute's.
void inferOptional(InferenceContext& ctx) {
  if (ctx.hasInput(0)) {
    if (const InferredType* type = ctx.inputType(0)) {
      ctx.setOutputType(0, InferredType::optional(*type));
    }
    return;
  }
  const Attribute* type = ctx.attribute("type");
  if (type == nullptr || type->rare().tp == nullptr) {
    ctx.fail("an Optional without an input needs the type attribute");
    return;
  }
  InferredType element = ops::fromDeclared(*type->rare().tp, ctx.dims());
  if (element.isKnown()) ctx.setOutputType(0, InferredType::optional(std::move(element)));
}

Status runOptional(KernelContext& ctx) {
  if (const EvalValue* input = ctx.input(0)) {
    ctx.setOutput(0, *input);
  } else {
    ctx.setOutput(0, EvalValue{});
  }
  return Status::ok();
}

}  // namespace

extern const Operator kOptional;
constexpr Operator kOptional{
    .domain = kOnnxDomain,
    .name = "Optional",
    .versions = {
        {.since_version = 15,
         .inputs = {optional("input", "V")},
         .outputs = {{"output", "O"}},
         .attributes = {attr("type", kTypeProto)},
         .constraints = {{"V", tensor(kIr3Types) | sequence(kIr3Types)},
                         {"O", optionalTensor(kIr3Types) | optionalSequence(kIr3Types)}},
         .infer = inferOptional,
         .kernel = runOptional},
    }};
static_assert(isWellFormed(kOptional));

}  // namespace onyx::ops::ai_onnx
