// CausalConvWithState (ai.onnx), versions 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/quote.h"
#include "onyx/ops/inference_context.h"
#include "ops/body_text.h"
#include "ops/kernels.h"
#include "ops/nn/conv_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

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
// What onnx's CausalConvWithState inference refuses (onnx/defs/nn/defs.cc): an activation
// other than none, silu and swish, and shapes that do not fit input (B, C, L), weight
// (C, 1, K) with K at least 1, bias (C) and past_state (B, C, K - 1). Fails the node and
// returns false on the first.
bool checkCausalConvWithState(InferenceContext& ctx) {
  std::string_view activation = ctx.stringAttribute("activation").value_or("none");
  if (activation != "none" && activation != "silu" && activation != "swish") {
    ctx.fail("activation " + quoted(activation) + " is not one of none, silu, swish");
    return false;
  }
  if (!inputRankIs(ctx, 0, 3) || !inputRankIs(ctx, 1, 3) || !inputRankIs(ctx, 2, 1) ||
      !inputRankIs(ctx, 3, 3)) {
    return false;
  }
  const Dims* input = ctx.inputShape(0);
  const Dims* weight = ctx.inputShape(1);
  const Dims* bias = ctx.hasInput(2) ? ctx.inputShape(2) : nullptr;
  const Dims* past = ctx.hasInput(3) ? ctx.inputShape(3) : nullptr;
  // Fails naming `what` when `have` and `want` are numbers that differ.
  auto agree = [&](DimValue have, DimValue want, const std::string& what) {
    if (!have.isKnown() || !want.isKnown() || have.value() == want.value()) return true;
    ctx.fail(what + " is " + std::to_string(have.value()) + " but should be " +
             std::to_string(want.value()));
    return false;
  };
  if (weight != nullptr) {
    if (!agree((*weight)[1], DimValue::known(1), "the weight's dimension 1 (one per channel)")) {
      return false;
    }
    if ((*weight)[2].isKnown() && (*weight)[2].value() < 1) {
      ctx.fail("the kernel size (the weight's dimension 2) is " +
               std::to_string((*weight)[2].value()) + "; it is at least 1");
      return false;
    }
  }
  // Where the input's shape is unknown, a fresh symbol stands in: it agrees with anything.
  DimValue batch = input != nullptr ? (*input)[0] : ctx.dims().fresh();
  DimValue channels = input != nullptr ? (*input)[1] : ctx.dims().fresh();
  if (weight != nullptr && !agree((*weight)[0], channels, "the weight's dimension 0 (channels)")) {
    return false;
  }
  if (bias != nullptr && !agree((*bias)[0], channels, "bias's length")) return false;
  if (past != nullptr) {
    if (!agree((*past)[0], batch, "past_state's batch") ||
        !agree((*past)[1], channels, "past_state's channels")) {
      return false;
    }
    if (weight != nullptr && (*weight)[2].isKnown() &&
        !agree((*past)[2], DimValue::known((*weight)[2].value() - 1),
               "past_state's length (kernel size - 1)")) {
      return false;
    }
  }
  return true;
}

void inferCausalConvWithState(InferenceContext& ctx) {
  if (!checkCausalConvWithState(ctx)) return;
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
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

// Each (batch, channel) row: padded = past_state (or k - 1 zeros) followed by the input;
// output[t] = bias + sum_j weight[j] * padded[t + j], rounded to the element type, then SiLU
// in float when asked; present_state = the last k - 1 padded positions.
Status runCausalConvWithState(KernelContext& ctx) {
  const Array* input = ctx.inputArray(0);
  const Array* weight = ctx.inputArray(1);
  const Array* bias = ctx.inputArray(2);
  const Array* past = ctx.inputArray(3);
  if (input == nullptr || weight == nullptr) return ctx.fail("needs the tensors input and weight");
  std::string_view activation = ctx.stringAttribute("activation").value_or("none");
  bool silu = activation == "silu" || activation == "swish";
  if (!silu && activation != "none") {
    return ctx.fail("activation " + quoted(activation) + " is not one of none, silu, swish");
  }
  if (input->rank() != 3) {
    return ctx.fail("the input has rank " + std::to_string(input->rank()) + "; it must be 3");
  }
  int64_t batch = input->dim(0), channels = input->dim(1), length = input->dim(2);
  if (weight->rank() != 3 || weight->dim(0) != channels || weight->dim(1) != 1 ||
      weight->dim(2) < 1) {
    return ctx.fail("the weight must have shape (" + std::to_string(channels) + ", 1, k), k >= 1");
  }
  int64_t k = weight->dim(2);
  int64_t history = k - 1;
  if (bias != nullptr && (bias->rank() != 1 || bias->dim(0) != channels)) {
    return ctx.fail("the bias must have shape (" + std::to_string(channels) + ")");
  }
  if (past != nullptr && (past->rank() != 3 || past->dim(0) != batch || past->dim(1) != channels ||
                          past->dim(2) != history)) {
    return ctx.fail("past_state must have shape (" + std::to_string(batch) + ", " +
                    std::to_string(channels) + ", " + std::to_string(history) + ")");
  }
  for (const Array* other : {weight, bias, past}) {
    if (other != nullptr && other->type() != input->type()) {
      return ctx.fail("the inputs have different element types");
    }
  }
  Array xs = widenToFloat(*input);
  if (xs.type() != ElementType::kFloat) {
    return ctx.fail("no kernel for " + std::string(elementTypeName(input->type())));
  }
  Array ws = widenToFloat(*weight);
  Array bs = bias != nullptr ? widenToFloat(*bias) : Array();
  Array ps = past != nullptr ? widenToFloat(*past) : Array();
  Array y(ElementType::kFloat, input->shape());
  Array state(ElementType::kFloat, {batch, channels, history});
  const float* x = xs.data<float>();
  const float* w = ws.data<float>();
  float* out = y.data<float>();
  float* carried = state.data<float>();
  size_t len = static_cast<size_t>(length);
  size_t hist = static_cast<size_t>(history);
  size_t rows = static_cast<size_t>(batch * channels);
  parallelFor(ctx, rows, nn::grainFor(len * (hist + 1)), [&](size_t begin, size_t end) {
    std::vector<float> padded(len + hist);
    for (size_t row = begin; row < end; ++row) {
      size_t c = row % static_cast<size_t>(channels);
      if (past != nullptr) {
        std::copy_n(ps.data<float>() + row * hist, hist, padded.begin());
      } else {
        std::fill_n(padded.begin(), hist, 0.0f);
      }
      std::copy_n(x + row * len, len, padded.begin() + static_cast<std::ptrdiff_t>(hist));
      const float* taps = w + c * (hist + 1);
      float add = bias != nullptr ? bs.data<float>()[c] : 0.0f;
      float* line = out + row * len;
      for (size_t t = 0; t < len; ++t) {
        float sum = 0;
        for (size_t j = 0; j <= hist; ++j) sum += taps[j] * padded[t + j];
        line[t] = sum + add;
      }
      std::copy_n(padded.begin() + static_cast<std::ptrdiff_t>(len), hist, carried + row * hist);
    }
  });
  Array result = narrowFromFloat(y, input->type());
  if (silu) {
    Array wide = widenToFloat(result);
    Array gated(ElementType::kFloat, input->shape());
    const float* from = wide.data<float>();
    float* to = gated.data<float>();
    for (size_t i = 0; i < gated.size(); ++i) to[i] = from[i] / (1.0f + std::exp(-from[i]));
    result = narrowFromFloat(gated, input->type());
  }
  ctx.setOutput(0, std::move(result));
  ctx.setOutput(1, narrowFromFloat(state, input->type()));
  return Status::ok();
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
         .infer = inferCausalConvWithState,
         .kernel = runCausalConvWithState},
    }};
static_assert(isWellFormed(kCausalConvWithState));

}  // namespace onyx::ops::ai_onnx
