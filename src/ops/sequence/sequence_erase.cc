// SequenceErase (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Erasing keeps the element type, shape included.
void inferSequenceErase(InferenceContext& ctx) {
  const InferredType* sequence = ctx.inputType(0);
  if (sequence != nullptr && sequence->kind == InferredType::Kind::kSequence) {
    ctx.setOutputType(0, *sequence);
  }
}

}  // namespace

extern const Operator kSequenceErase;
constexpr Operator kSequenceErase{
    .domain = kOnnxDomain,
    .name = "SequenceErase",
    .versions = {
        {.since_version = 11,
         .inputs = {{"input_sequence", "S"}, optional("position", "I")},
         .outputs = {{"output_sequence", "S"}},
         .constraints = {{"S", sequence(kIr3Types)}, {"I", tensor("int32 int64")}},
         .infer = inferSequenceErase},
    }};
static_assert(isWellFormed(kSequenceErase));

}  // namespace onyx::ops::ai_onnx
