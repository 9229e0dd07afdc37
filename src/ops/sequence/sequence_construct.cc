// SequenceConstruct (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
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
         .infer = inferSequenceConstruct},
    }};
static_assert(isWellFormed(kSequenceConstruct));

}  // namespace onyx::ops::ai_onnx
