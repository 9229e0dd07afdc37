// RMSNormalization (ai.onnx), versions 23.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/body_text.h"
#include "ops/lib/real_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// RMSNormalization as the spec defines it: X / sqrt(mean(X^2) + epsilon) over the axes from
// `axis` on, in `stash_type`, cast back and scaled. The body needs X's element type.
Result<std::string> buildRmsNormalization23(const FunctionBodyContext& context) {
  Result<int32_t> type = body::requireElementType(context, 0);
  if (!type) return type.status();
  int64_t stash = context.intAttr("stash_type").value_or(body::kFloat);
  if (stash != body::kFloat && stash != body::kBfloat16 && stash != body::kFloat16 &&
      stash != body::kDouble) {
    return body::refuse("stash_type must be a float type");
  }
  int64_t axis = context.intAttr("axis").value_or(-1);
  float epsilon = context.floatAttr("epsilon").value_or(1e-5f);
  body::BodyText out(context, "RMSNormalization");
  out.scalarFloat("epsilon_f", epsilon)
      .addf("epsilon_u = Cast <to = {}> (epsilon_f)", stash)
      .add("x_shape = Shape (X)")
      .add("rank = Size (x_shape)")
      .scalarInt("axis", axis)
      .add(axis >= 0 ? "first_axis = Identity (axis)" : "first_axis = Add (rank, axis)")
      .scalarInt("one", 1)
      .add("reduced_axes = Range (first_axis, rank, one)")
      .addf("x_u = Cast <to = {}> (X)", stash)
      .add("x_squared = Mul (x_u, x_u)")
      .add("mean_square = ReduceMean (x_squared, reduced_axes)")
      .add("mean_square_eps = Add (mean_square, epsilon_u)")
      .add("rms = Sqrt (mean_square_eps)")
      .add("normalized = Div (x_u, rms)")
      .addf("normalized_t = Cast <to = {}> (normalized)", *type)
      .add("Y = Mul (normalized_t, scale)");
  return out.finish();
}
// Y has X's shape; axis names an axis of X (onnx's RMSNormalization inference refuses one
// before the first, onnx/defs/nn/defs.cc).
void inferRMSNormalization(InferenceContext& ctx) {
  if (std::optional<size_t> rank = ctx.inputRank(0);
      rank && !normalizeAxis(ctx, ctx.intAttribute("axis").value_or(-1), *rank)) {
    return;
  }
  inferSameShape(ctx);
}

Status runRmsNormalization(KernelContext& ctx) { return trailingNormalization(ctx, true); }

}  // namespace

extern const Operator kRMSNormalization;
constexpr Operator kRMSNormalization{
    .domain = kOnnxDomain,
    .name = "RMSNormalization",
    .versions = {
        {.since_version = 23,
         .inputs = {{"X", "T"}, {"scale", "V"}},
         .outputs = {{"Y", "V"}},
         .attributes = {attr("axis", -1), attr("epsilon", 1e-05f), attr("stash_type", 1)},
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"V", tensor("float16 float double bfloat16")}},
         .build_function_body = buildRmsNormalization23,
         .infer = inferRMSNormalization,
         .kernel = runRmsNormalization},
    }};
static_assert(isWellFormed(kRMSNormalization));

}  // namespace onyx::ops::ai_onnx
