// CausalConvWithState (ai.onnx), versions 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>

#include "onyx/ops/inference_context.h"
#include "ops/body_text.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// CausalConvWithState as the spec defines it: the input left-padded with past_state (or k - 1
// zeros), a depthwise Conv (group = channels) over it, an optional SiLU computed in float, and
// the last k - 1 padded positions as present_state. Conv's group is an attribute, so the
// channel count must be known: from input's dimension 1, else weight's dimension 0.
Result<std::string> buildCausalConvWithState27(const FunctionBodyContext& context) {
  const Type* input_type = context.inputType(0);
  if (input_type == nullptr || input_type->shape == nullptr || input_type->shape->rank() < 2) {
    return body::refuse("the body needs the channel count, and input's shape is not known");
  }
  std::optional<int64_t> channels = input_type->shape->dims[1].dim_value;
  if (!channels) {
    const Type* weight_type = context.inputType(1);
    if (weight_type != nullptr && weight_type->shape != nullptr &&
        weight_type->shape->rank() >= 1) {
      channels = weight_type->shape->dims[0].dim_value;
    }
  }
  if (!channels) return body::refuse("the channel count is not known from input or weight");
  std::string activation(context.stringAttr("activation").value_or("none"));
  if (activation != "none" && activation != "silu" && activation != "swish") {
    return body::refuse("activation must be none, silu or swish");
  }

  body::BodyText out(context, "CausalConvWithState");
  out.ints("one_1d", {1})
      .add("kernel_size = Shape <start = 2, end = 3> (weight)")
      .add("history = Sub (kernel_size, one_1d)");
  if (context.hasInput(3)) {
    out.add("padded = Concat <axis = 2> (past_state, input)");
  } else {
    out.add("batch = Shape <start = 0, end = 1> (input)")
        .add("channel_dim = Shape <start = 1, end = 2> (input)")
        .add("zeros_shape = Concat <axis = 0> (batch, channel_dim, history)")
        .add("zeros = ConstantOfShape (zeros_shape)")
        .add("zeros_t = CastLike (zeros, input)")
        .add("padded = Concat <axis = 2> (zeros_t, input)");
  }
  out.addf("convolved = Conv <group = {}> (padded, weight{})", *channels,
           context.hasInput(2) ? ", bias" : "");
  if (activation == "none") {
    out.add("output = Identity (convolved)");
  } else {
    out.add("convolved_f = Cast <to = 1> (convolved)")
        .add("gate = Sigmoid (convolved_f)")
        .add("gated = Mul (convolved_f, gate)")
        .add("output = CastLike (gated, convolved)");
  }
  out.add("padded_length = Shape <start = 2, end = 3> (padded)")
      .add("state_start = Sub (padded_length, history)")
      .ints("length_axis", {2})
      .add("present_state = Slice (padded, state_start, padded_length, length_axis)");
  return out.finish();
}

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
         .build_function_body = buildCausalConvWithState27,
         .infer = inferCausalConvWithState},
    }};
static_assert(isWellFormed(kCausalConvWithState));

}  // namespace onyx::ops::ai_onnx
