// SequenceAt (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/lib/sequence_kernels.h"
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

Status runSequenceAt(KernelContext& ctx) {
  const EvalValue* sequence = ctx.input(0);
  const Array* position = ctx.inputArray(1);
  if (sequence == nullptr || sequence->kind != EvalValue::Kind::kSequence) {
    return ctx.fail("input_sequence is not a sequence");
  }
  std::optional<int64_t> at = position != nullptr ? singleInteger(*position) : std::nullopt;
  if (!at) return ctx.fail("position must be one int32 or int64 element");
  int64_t count = static_cast<int64_t>(sequence->items.size());
  if (*at < -count || *at >= count) {
    return ctx.fail("position " + std::to_string(*at) + " is outside a sequence of " +
                    std::to_string(count));
  }
  ctx.setOutput(0, sequence->items[static_cast<size_t>(*at < 0 ? *at + count : *at)]);
  return Status::ok();
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
                                    .infer = inferSequenceAt,
                                    .kernel = runSequenceAt},
                               }};
static_assert(isWellFormed(kSequenceAt));

}  // namespace onyx::ops::ai_onnx
