// GroupNormalization (ai.onnx), versions 18, 21.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstring>
#include <optional>
#include <string>
#include "onyx/core/array.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/type.h"
#include "ops/body_text.h"
#include "ops/lib/real_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Y has X's shape; the channels must split into num_groups groups.
void inferGroupNormalization(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  int64_t groups = ctx.intAttribute("num_groups").value_or(0);
  if (input->size() >= 2 && (*input)[1].isKnown() && groups > 0 &&
      (*input)[1].value() % groups != 0) {
    ctx.fail(std::to_string((*input)[1].value()) + " channels do not split into " +
             std::to_string(groups) + " groups");
    return;
  }
  ctx.setOutputShape(0, *input);
}

}  // namespace

constexpr Formals kInputs18 = {{"X", "T"}, {"scale", "T"}, {"bias", "T"}};
constexpr Formals kOutputs18 = {{"Y", "T"}};

namespace {

// GroupNormalization as the spec defines it: X reshaped to (N, groups, rest), normalised over
// the last dimension, reshaped back, then scaled and biased per channel (version 21) or per
// group (version 18). Version 21 computes in `stash_type`; both need X's element type.
Result<std::string> buildGroupNormalization(const FunctionBodyContext& context, bool version21) {
  Result<int32_t> type = body::requireElementType(context, 0);
  if (!type) return type.status();
  std::optional<int64_t> groups = context.intAttr("num_groups");
  if (!groups) return body::refuse("the required attribute num_groups is missing");
  float epsilon = context.floatAttr("epsilon").value_or(1e-5f);
  int64_t stash = *type;
  if (version21) {
    stash = context.intAttr("stash_type").value_or(body::kFloat);
    if (stash != body::kFloat && stash != body::kBfloat16 && stash != body::kFloat16 &&
        stash != body::kDouble) {
      return body::refuse("stash_type must be a float type");
    }
  }
  body::BodyText out(context, "GroupNormalization");
  out.floats("epsilon_f", {epsilon}).addf("epsilon_u = Cast <to = {}> (epsilon_f)", stash);
  std::string_view x = "X";
  if (version21) {
    out.addf("x_u = Cast <to = {}> (X)", stash).add("x_shape = Shape (x_u)");
    x = "x_u";
  } else {
    out.add("x_shape = Shape (X)");
  }
  out.add("channels = Shape <start = 1, end = 2> (X)")
      .ints("groups", {*groups})
      .add("group_size = Div (channels, groups)")
      .add("batch = Shape <start = 0, end = 1> (X)")
      .add("instance_shape = Shape <start = 2> (X)")
      .add("grouped_shape = Concat <axis = 0> (batch, groups, group_size, instance_shape)")
      .addf("x_grouped = Reshape ({}, grouped_shape)", x)
      .add("shape_3d = Constant <value_ints = [0, 0, -1]> ()")
      .add("x_3d = Reshape (x_grouped, shape_3d)")
      .ints("axes_2", {2})
      .add("mean = ReduceMean (x_3d, axes_2)")
      .add("square = Mul (x_3d, x_3d)")
      .add("mean_of_square = ReduceMean (square, axes_2)")
      .add("square_of_mean = Mul (mean, mean)")
      .add("variance = Sub (mean_of_square, square_of_mean)")
      .add("variance_eps = Add (variance, epsilon_u)")
      .add("std_dev = Sqrt (variance_eps)")
      .add("deviation = Sub (x_3d, mean)");
  std::string_view normalized = "normalized";
  if (version21) {
    out.add("normalized_u = Div (deviation, std_dev)")
        .add("normalized_full = Reshape (normalized_u, x_shape)")
        .add("normalized_nc = Reshape (normalized_full, shape_3d)")
        .addf("normalized_t = Cast <to = {}> (normalized_nc)", *type);
    normalized = "normalized_t";
  } else {
    out.add("normalized = Div (deviation, std_dev)");
  }
  out.add("scale_shape = Constant <value_ints = [1, -1, 1]> ()")
      .addf("scale_t = Cast <to = {}> (scale)", *type)
      .addf("bias_t = Cast <to = {}> (bias)", *type)
      .add("scale_column = Reshape (scale_t, scale_shape)")
      .add("bias_column = Reshape (bias_t, scale_shape)")
      .addf("scaled = Mul (scale_column, {})", normalized)
      .add("biased = Add (scaled, bias_column)")
      .add("Y = Reshape (biased, x_shape)");
  return out.finish();
}

Result<std::string> buildGroupNormalization18(const FunctionBodyContext& context) {
  return buildGroupNormalization(context, false);
}
Result<std::string> buildGroupNormalization21(const FunctionBodyContext& context) {
  return buildGroupNormalization(context, true);
}

// Channels split into num_groups groups, each normalized per batch item; version 18 scales
// and shifts per group, version 21 per channel.
Status runGroupNormalization(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* scale = ctx.inputArray(1);
  const Array* bias = ctx.inputArray(2);
  if (x == nullptr || scale == nullptr || bias == nullptr) {
    return ctx.fail("needs X, scale and bias tensors");
  }
  int64_t groups = ctx.intAttribute("num_groups").value_or(0);
  if (groups <= 0) return ctx.fail("num_groups must be positive");
  bool per_group = ctx.schema().since_version < 21;
  return groupNormalization(ctx, *x, *scale, *bias, static_cast<size_t>(groups), per_group,
                            ctx.floatAttribute("epsilon").value_or(1e-5f));
}

// Version 18 scales and shifts per group, 21 per channel, and computes in stash_type where 18
// kept X's type. Constant scale and bias repeat each group's value over its channels, which
// needs X's channel count; stash_type becomes X's element type.
Status perChannelScaleAndBias(NodeDraft& draft) {
  std::optional<int64_t> groups = draft.intAttr("num_groups");
  if (!groups || *groups <= 0) return draft.refuse("num_groups is not a positive int");
  const Type* x = draft.inputType(0);
  if (x == nullptr || !x->elem_type) return draft.refuse("X's element type is unknown");
  if (x->shape == nullptr || x->shape->rank() < 2 || !x->shape->dims[1].isKnown()) {
    return draft.refuse("X's channel count is unknown");
  }
  const int64_t channels = *x->shape->dims[1].dim_value;
  if (channels % *groups != 0) return draft.refuse("the channels do not split into the groups");
  const size_t per_group = static_cast<size_t>(channels / *groups);
  for (size_t input : {size_t{1}, size_t{2}}) {
    const Tensor* constant = draft.constantInput(input);
    if (constant == nullptr) return draft.refuse("scale or bias is not a constant");
    Result<Array> values = arrayFromTensor(*constant);
    if (!values || values->size() != static_cast<size_t>(*groups)) {
      return draft.refuse("scale or bias does not hold one value per group");
    }
    Array widened(values->type(), {channels});
    const size_t width = arrayElementBytes(values->type());
    for (size_t c = 0; c < widened.size(); ++c) {
      std::memcpy(widened.bytes().data() + c * width,
                  values->bytes().data() + (c / per_group) * width, width);
    }
    draft.setConstantInput(input, draft.editor().tensorFromArray(widened));
  }
  draft.setIntAttr("stash_type", *x->elem_type);
  return Status::ok();
}

// Version 18 is deprecated, so no node converts down to it.
Status refuseDeprecated(NodeDraft& draft) { return draft.refuse("version 18 is deprecated"); }

}  // namespace

extern const Operator kGroupNormalization;
constexpr Operator kGroupNormalization{
    .domain = kOnnxDomain,
    .name = "GroupNormalization",
    .versions = {
        {.since_version = 18,
         .deprecated = true,
         .inputs = kInputs18,
         .outputs = kOutputs18,
         .attributes = {attr("epsilon", 1e-05f), required("num_groups", kInt)},
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .build_function_body = buildGroupNormalization18,
         .infer = inferGroupNormalization,
         .kernel = runGroupNormalization},
        {.since_version = 21,
         .inputs = kInputs18,
         .outputs = kOutputs18,
         .attributes = {attr("epsilon", 1e-05f), required("num_groups", kInt),
                        attr("stash_type", 1)},
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .build_function_body = buildGroupNormalization21,
         .infer = inferGroupNormalization,
         .kernel = runGroupNormalization,
         .step = {.reviewed = true,
                  .change = "scale and bias per channel (were per group); stash_type added",
                  .up = perChannelScaleAndBias,
                  .down = refuseDeprecated,
                  .up_refuses = "scale or bias not constant, channels or X's type unknown",
                  .down_refuses = "always: version 18 is deprecated"}},
    }};
static_assert(isWellFormed(kGroupNormalization));

}  // namespace onyx::ops::ai_onnx
