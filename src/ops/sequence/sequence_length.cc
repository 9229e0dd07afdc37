// SequenceLength (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/lib/sequence_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferSequenceLength(InferenceContext& ctx) { ctx.setOutputShape(0, {}); }

Status runSequenceLength(KernelContext& ctx) {
  const EvalValue* sequence = ctx.input(0);
  if (sequence == nullptr || sequence->kind != EvalValue::Kind::kSequence) {
    return ctx.fail("input_sequence is not a sequence");
  }
  ctx.setOutput(0,
                Array::scalar(ElementType::kInt64, static_cast<int64_t>(sequence->items.size())));
  return Status::ok();
}

}  // namespace

extern const Operator kSequenceLength;
constexpr Operator kSequenceLength{
    .domain = kOnnxDomain,
    .name = "SequenceLength",
    .versions = {
        {.since_version = 11,
         .inputs = {{"input_sequence", "S"}},
         .outputs = {{"length", "I"}},
         .constraints = {{"S", sequence(kIr3Types)}, {"I", tensor("int64")}},
         .infer = inferSequenceLength,
         .kernel = runSequenceLength},
    }};
static_assert(isWellFormed(kSequenceLength));

}  // namespace onyx::ops::ai_onnx
