// SequenceAt (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferSequenceAt(InferenceContext& ctx) {
  const InferredType* sequence = ctx.inputType(0);
  if (sequence == nullptr || sequence->kind != InferredType::Kind::kSequence) return;
  if (sequence->elem != nullptr && sequence->elem->isKnown()) {
    ctx.setOutputType(0, *sequence->elem);
  }
}

}  // namespace

extern const Operator kSequenceAt;
constexpr Operator kSequenceAt{.domain = kOnnxDomain,
                               .name = "SequenceAt",
                               .versions = {
                                   {.since_version = 11,
                                    .inputs = {{"input_sequence", "S"}, {"position", "I"}},
                                    .outputs = {{"tensor", "T"}},
                                    .constraints = {{"S", sequence(kIr3Types)},
                                                    {"T", tensor(kIr3Types)},
                                                    {"I", tensor("int32 int64")}},
                                    .infer = inferSequenceAt},
                               }};
static_assert(isWellFormed(kSequenceAt));

}  // namespace onyx::ops::ai_onnx
