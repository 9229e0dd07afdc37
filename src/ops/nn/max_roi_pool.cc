// MaxRoiPool (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// (num_rois, C, pooled_h, pooled_w): rois is (num_rois, 5), each row a batch index and two
// corners, and the pooled sizes are positive; onnx's RoiPool inference refuses the rest
// (onnx/defs/nn/defs.cc).
void inferMaxRoiPool(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  const Dims* rois = ctx.inputShape(1);
  if (!inputRankIs(ctx, 1, 2)) return;
  if (rois != nullptr && (*rois)[1].isKnown() && (*rois)[1].value() != 5) {
    ctx.fail("rois has rows of " + std::to_string((*rois)[1].value()) +
             " values; MaxRoiPool takes (batch index, x1, y1, x2, y2), 5 per row");
    return;
  }
  std::optional<std::vector<int64_t>> pooled = ctx.intsAttribute("pooled_shape");
  if (input == nullptr || !pooled) return;
  if (input->size() != 4) {
    ctx.fail("the input has rank " + std::to_string(input->size()) + "; MaxRoiPool needs 4");
    return;
  }
  if (pooled->size() != 2) {
    ctx.fail("pooled_shape has " + std::to_string(pooled->size()) +
             " values; it takes two, the height and width");
    return;
  }
  if ((*pooled)[0] <= 0 || (*pooled)[1] <= 0) {
    ctx.fail("pooled_shape is [" + std::to_string((*pooled)[0]) + ", " +
             std::to_string((*pooled)[1]) + "]; both sizes must be positive");
    return;
  }
  DimValue count = rois != nullptr && rois->size() == 2 ? (*rois)[0] : ctx.dims().fresh();
  ctx.setOutputShape(
      0, {count, (*input)[1], DimValue::known((*pooled)[0]), DimValue::known((*pooled)[1])});
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}, {"rois", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {required("pooled_shape", kInts), attr("spatial_scale", 1.0f)};

extern const Operator kMaxRoiPool;
constexpr Operator kMaxRoiPool{.domain = kOnnxDomain,
                               .name = "MaxRoiPool",
                               .versions = {
                                   {.since_version = 1,
                                    .inputs = kInputs1,
                                    .outputs = kOutputs1,
                                    .attributes = kAttributes1,
                                    .constraints = {{"T", tensor("float16 float double")}},
                                    .infer = inferMaxRoiPool},
                                   {.since_version = 22,
                                    .inputs = kInputs1,
                                    .outputs = kOutputs1,
                                    .attributes = kAttributes1,
                                    .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                                    .infer = inferMaxRoiPool,
                                    .step = typesOnly("bfloat16 added")},
                               }};
static_assert(isWellFormed(kMaxRoiPool));

}  // namespace onyx::ops::ai_onnx
