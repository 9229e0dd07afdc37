// SequenceErase (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/lib/sequence_kernels.h"
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

Status runSequenceErase(KernelContext& ctx) {
  const EvalValue* sequence = ctx.input(0);
  if (sequence == nullptr || sequence->kind != EvalValue::Kind::kSequence) {
    return ctx.fail("input_sequence is not a sequence");
  }
  int64_t count = static_cast<int64_t>(sequence->items.size());
  int64_t at = -1;
  if (const Array* position = ctx.inputArray(1)) {
    std::optional<int64_t> given = singleInteger(*position);
    if (!given) return ctx.fail("position must be one int32 or int64 element");
    at = *given;
  }
  if (at < -count || at >= count) {
    return ctx.fail("position " + std::to_string(at) + " is outside a sequence of " +
                    std::to_string(count));
  }
  if (at < 0) at += count;
  std::vector<EvalValue> items = sequence->items;
  items.erase(items.begin() + at);
  ctx.setOutput(0, EvalValue::sequence(std::move(items)));
  return Status::ok();
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
         .infer = inferSequenceErase,
         .kernel = runSequenceErase},
    }};
static_assert(isWellFormed(kSequenceErase));

}  // namespace onyx::ops::ai_onnx
