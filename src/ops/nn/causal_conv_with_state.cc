// CausalConvWithState (ai.onnx), versions 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// output has input's shape (batch, channels, length); present_state is
// (batch, channels, k - 1) for the weight (channels, 1, k).
void inferCausalConvWithState(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() != 3) {
    ctx.fail("the input has rank " + std::to_string(input->size()) +
             "; CausalConvWithState needs 3");
    return;
  }
  ctx.setOutputShape(0, *input);
  if (!ctx.hasOutput(1)) return;
  DimValue carried = ctx.dims().fresh();
  if (const Dims* past = ctx.inputShape(3); past != nullptr && past->size() == 3) {
    carried = (*past)[2];
  } else if (const Dims* weight = ctx.inputShape(1); weight != nullptr && weight->size() == 3) {
    carried = ctx.dims().subtract((*weight)[2], DimValue::known(1));
  }
  ctx.setOutputShape(1, {(*input)[0], (*input)[1], carried});
}

}  // namespace

extern const Operator kCausalConvWithState;
constexpr Operator kCausalConvWithState{
    .domain = kOnnxDomain,
    .name = "CausalConvWithState",
    .versions = {
        {.since_version = 27,
         .inputs =
             {{"input", "T"}, {"weight", "T"}, optional("bias", "T"), optional("past_state", "T")},
         .outputs = {{"output", "T"}, {"present_state", "T"}},
         .attributes = {attr("activation", "none")},
         .constraints = {{"T", tensor("float float16 bfloat16")}},
         .infer = inferCausalConvWithState},
    }};
static_assert(isWellFormed(kCausalConvWithState));

}  // namespace onyx::ops::ai_onnx
