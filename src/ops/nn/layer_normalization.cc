// LayerNormalization (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it. unchecked_attributes added by hand:
// onnx's schema lets the node carry attributes it does not declare.
#include "ops/body_text.h"
#include "ops/lib/real_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// LayerNormalization 17 as the spec defines it: X flattened to 2-D at `axis`, normalised over
// the second dimension in `stash_type` (float or bfloat16), scaled and biased, reshaped back;
// Mean and InvStdDev keep the leading dimensions with ones after. From opset 18 ReduceMean
// takes its axes as an input. The body needs X's element type.
Result<std::string> buildLayerNormalization17(const FunctionBodyContext& context) {
  Result<int32_t> type = body::requireElementType(context, 0);
  if (!type) return type.status();
  int64_t stash = context.intAttr("stash_type").value_or(body::kFloat);
  if (stash != body::kFloat && stash != body::kBfloat16) {
    return body::refuse("stash_type must be float (1) or bfloat16 (16)");
  }
  int64_t axis = context.intAttr("axis").value_or(-1);
  float epsilon = context.floatAttr("epsilon").value_or(1e-5f);
  body::BodyText out(context, "LayerNormalization");
  out.scalarFloat("epsilon_f", epsilon)
      .addf("epsilon_u = Cast <to = {}> (epsilon_f)", stash)
      .add("x_shape = Shape (X)")
      .add("rank = Size (x_shape)")
      .ints("zero_1d", {0})
      .ints("axis_1d", {axis})
      .add("prefix_shape = Slice (x_shape, zero_1d, axis_1d)")
      .add(axis >= 0 ? "reduced_count = Sub (rank, axis_1d)" : "reduced_count = Neg (axis_1d)")
      .add("suffix_shape = ConstantOfShape <value = int64[1] {1}> (reduced_count)")
      .add("reduced_shape = Concat <axis = 0> (prefix_shape, suffix_shape)")
      .addf("x_2d = Flatten <axis = {}> (X)", axis)
      .addf("x_u = Cast <to = {}> (x_2d)", stash);
  if (context.opset >= 18) {
    out.ints("axes_1", {1})
        .add("mean_2d = ReduceMean (x_u, axes_1)")
        .add("square = Mul (x_u, x_u)")
        .add("mean_of_square = ReduceMean (square, axes_1)");
  } else {
    out.add("mean_2d = ReduceMean <axes = [1]> (x_u)")
        .add("square = Mul (x_u, x_u)")
        .add("mean_of_square = ReduceMean <axes = [1]> (square)");
  }
  out.add("square_of_mean = Mul (mean_2d, mean_2d)")
      .add("variance = Sub (mean_of_square, square_of_mean)")
      .add("variance_eps = Add (variance, epsilon_u)")
      .add("std_dev = Sqrt (variance_eps)")
      .add("deviation = Sub (x_u, mean_2d)")
      .add("normalized = Div (deviation, std_dev)")
      .addf("normalized_t = Cast <to = {}> (normalized)", *type)
      .add("scale_2d = Flatten <axis = 0> (Scale)")
      .add("scaled = Mul (normalized_t, scale_2d)");
  if (context.hasInput(2)) {
    out.add("bias_2d = Flatten <axis = 0> (B)").add("biased = Add (scaled, bias_2d)");
  } else {
    out.add("biased = Identity (scaled)");
  }
  out.add("Y = Reshape (biased, x_shape)").add("inv_std_dev_2d = Reciprocal (std_dev)");
  if (context.hasOutput(1)) out.add("Mean = Reshape (mean_2d, reduced_shape)");
  if (context.hasOutput(2)) out.add("InvStdDev = Reshape (inv_std_dev_2d, reduced_shape)");
  return out.finish();
}

// Y has X's shape; Mean and InvStdDev keep the axes before `axis` and have 1 for the
// normalized ones, in the stash_type element type.
void inferLayerNormalization(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  ctx.setOutputShape(0, *input);
  std::optional<size_t> axis =
      normalizeAxis(ctx, ctx.intAttribute("axis").value_or(-1), input->size());
  if (!axis) return;
  int64_t stash_type = ctx.intAttribute("stash_type").value_or(1);
  Dims statistics(input->begin(), input->begin() + static_cast<std::ptrdiff_t>(*axis));
  statistics.resize(input->size(), DimValue::known(1));
  if (stash_type <= 0 || stash_type > 26) return;  // not an element type: leave them unknown
  for (size_t i = 1; i < ctx.outputCount() && i < 3; ++i) {
    if (ctx.hasOutput(i)) ctx.setOutputTensor(i, static_cast<int32_t>(stash_type), statistics);
  }
}

Status runLayerNormalization(KernelContext& ctx) { return trailingNormalization(ctx, false); }

}  // namespace

extern const Operator kLayerNormalization;
constexpr Operator kLayerNormalization{
    .domain = kOnnxDomain,
    .name = "LayerNormalization",
    .versions = {
        {.since_version = 17,
         .inputs = {{"X", "T"}, {"Scale", "T"}, optional("B", "T")},
         .outputs = {{"Y", "T"}, optional("Mean", "U"), optional("InvStdDev", "U")},
         .attributes = {attr("axis", -1), attr("epsilon", 1e-05f), attr("stash_type", 1)},
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"U", tensor("float bfloat16")}},
         .unchecked_attributes = true,
         .build_function_body = buildLayerNormalization17,
         .infer = inferLayerNormalization,
         .kernel = runLayerNormalization},
    }};
static_assert(isWellFormed(kLayerNormalization));

}  // namespace onyx::ops::ai_onnx
