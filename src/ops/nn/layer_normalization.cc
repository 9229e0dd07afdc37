// LayerNormalization (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it. unchecked_attributes added by hand:
// onnx's schema lets the node carry attributes it does not declare.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

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
         .infer = inferLayerNormalization},
    }};
static_assert(isWellFormed(kLayerNormalization));

}  // namespace onyx::ops::ai_onnx
