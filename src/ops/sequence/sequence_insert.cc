// SequenceInsert (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/controlflow/subgraph_types.h"
#include "ops/schema_dsl.h"
#include "ops/sequence/sequence_types.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferSequenceInsert(InferenceContext& ctx) {
  const InferredType* sequence = ctx.inputType(0);
  const InferredType* tensor = ctx.inputType(1);
  if (sequence == nullptr || sequence->kind != InferredType::Kind::kSequence) return;
  if (sequence->elem == nullptr || !sequence->elem->isKnown()) {
    // Elements of any shape may be in it already.
    if (tensor != nullptr) ctx.setOutputType(0, InferredType::sequence(withoutShape(*tensor)));
    return;
  }
  InferredType element = *sequence->elem;
  if (tensor != nullptr && !mergeElementInto(ctx, element, *tensor, "the inserted tensor")) return;
  ctx.setOutputType(0, InferredType::sequence(std::move(element)));
}

}  // namespace

extern const Operator kSequenceInsert;
constexpr Operator kSequenceInsert{
    .domain = kOnnxDomain,
    .name = "SequenceInsert",
    .versions = {
        {.since_version = 11,
         .inputs = {{"input_sequence", "S"}, {"tensor", "T"}, optional("position", "I")},
         .outputs = {{"output_sequence", "S"}},
         .constraints = {{"T", tensor(kIr3Types)},
                         {"S", sequence(kIr3Types)},
                         {"I", tensor("int32 int64")}},
         .infer = inferSequenceInsert},
    }};
static_assert(isWellFormed(kSequenceInsert));

}  // namespace onyx::ops::ai_onnx
