// SequenceInsert (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/sequence_kernels.h"
#include "ops/lib/subgraph_types.h"
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

Status runSequenceInsert(KernelContext& ctx) {
  const EvalValue* sequence = ctx.input(0);
  const Array* tensor = ctx.inputArray(1);
  if (sequence == nullptr || sequence->kind != EvalValue::Kind::kSequence || tensor == nullptr) {
    return ctx.fail("needs a sequence and a tensor");
  }
  int64_t count = static_cast<int64_t>(sequence->items.size());
  int64_t at = count;
  if (const Array* position = ctx.inputArray(2)) {
    std::optional<int64_t> given = singleInteger(*position);
    if (!given) return ctx.fail("position must be one int32 or int64 element");
    if (*given < -count || *given > count) {
      return ctx.fail("position " + std::to_string(*given) + " is outside [-" +
                      std::to_string(count) + ", " + std::to_string(count) + "]");
    }
    at = *given < 0 ? *given + count : *given;
  }
  for (const EvalValue& item : sequence->items) {
    if (item.isTensor() && item.tensor.type() != tensor->type()) {
      return ctx.fail("the tensor's element type differs from the sequence's");
    }
  }
  std::vector<EvalValue> items = sequence->items;
  items.insert(items.begin() + at, EvalValue::of(*tensor));
  ctx.setOutput(0, EvalValue::sequence(std::move(items)));
  return Status::ok();
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
         .infer = inferSequenceInsert,
         .kernel = runSequenceInsert},
    }};
static_assert(isWellFormed(kSequenceInsert));

}  // namespace onyx::ops::ai_onnx
