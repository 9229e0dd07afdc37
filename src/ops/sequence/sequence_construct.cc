// SequenceConstruct (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/sequence_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/sequence/sequence_types.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferSequenceConstruct(InferenceContext& ctx) {
  InferredType element;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const InferredType* type = ctx.inputType(i);
    if (type == nullptr) return;
    if (i == 0) {
      element = *type;
    } else if (!mergeElementInto(ctx, element, *type, "input " + std::to_string(i))) {
      return;
    }
  }
  if (element.isKnown()) ctx.setOutputType(0, InferredType::sequence(std::move(element)));
}

Status runSequenceConstruct(KernelContext& ctx) {
  std::vector<EvalValue> items;
  items.reserve(ctx.inputCount());
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const Array* tensor = ctx.inputArray(i);
    if (tensor == nullptr) return ctx.fail("input " + std::to_string(i) + " is not a tensor");
    if (tensor->type() != ctx.inputArray(0)->type()) {
      return ctx.fail("input " + std::to_string(i) + " differs in element type from input 0");
    }
    items.push_back(EvalValue::of(*tensor));
  }
  ctx.setOutput(0, EvalValue::sequence(std::move(items)));
  return Status::ok();
}

}  // namespace

extern const Operator kSequenceConstruct;
constexpr Operator kSequenceConstruct{
    .domain = kOnnxDomain,
    .name = "SequenceConstruct",
    .versions = {
        {.since_version = 11,
         .inputs = {variadic("inputs", "T", 1)},
         .outputs = {{"output_sequence", "S"}},
         .constraints = {{"T", tensor(kIr3Types)}, {"S", sequence(kIr3Types)}},
         .infer = inferSequenceConstruct,
         .kernel = runSequenceConstruct},
    }};
static_assert(isWellFormed(kSequenceConstruct));

}  // namespace onyx::ops::ai_onnx
