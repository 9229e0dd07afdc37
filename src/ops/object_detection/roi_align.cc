// RoiAlign (ai.onnx), versions 10, 16, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// (num_rois, C, output_height, output_width): rois is (num_rois, 4), batch_indices
// (num_rois).
void inferRoiAlign(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() != 4) {
    ctx.fail("the input has rank " + std::to_string(input->size()) + "; RoiAlign needs 4");
    return;
  }
  int64_t height = ctx.intAttribute("output_height").value_or(1);
  int64_t width = ctx.intAttribute("output_width").value_or(1);
  if (height <= 0 || width <= 0) {
    ctx.fail("output_height " + std::to_string(height) + " and output_width " +
             std::to_string(width) + " must be positive");
    return;
  }
  DimValue count = ctx.dims().fresh();
  const Dims* rois = ctx.inputShape(1);
  const Dims* indices = ctx.inputShape(2);
  if (rois != nullptr && rois->size() == 2) {
    count = (*rois)[0];
    if (indices != nullptr && indices->size() == 1 && !count.isKnown()) count = (*indices)[0];
  } else if (indices != nullptr && indices->size() == 1) {
    count = (*indices)[0];
  }
  ctx.setOutputShape(0, {count, (*input)[1], DimValue::known(height), DimValue::known(width)});
}

}  // namespace

constexpr Formals kInputs10 = {{"X", "T1"}, {"rois", "T1"}, {"batch_indices", "T2"}};
constexpr Formals kOutputs10 = {{"Y", "T1"}};
constexpr Attributes kAttributes16 = {attr("coordinate_transformation_mode", "half_pixel"),
                                      attr("mode", "avg"),
                                      attr("output_height", 1),
                                      attr("output_width", 1),
                                      attr("sampling_ratio", 0),
                                      attr("spatial_scale", 1.0f)};
constexpr Constraints kConstraints10 = {{"T1", tensor("float16 float double")},
                                        {"T2", tensor("int64")}};

extern const Operator kRoiAlign;
constexpr Operator kRoiAlign{
    .domain = kOnnxDomain,
    .name = "RoiAlign",
    .versions = {
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = {attr("mode", "avg"), attr("output_height", 1), attr("output_width", 1),
                        attr("sampling_ratio", 0), attr("spatial_scale", 1.0f)},
         .constraints = kConstraints10,
         .infer = inferRoiAlign},
        {.since_version = 16,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes16,
         .constraints = kConstraints10,
         .infer = inferRoiAlign},
        {.since_version = 22,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes16,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}, {"T2", tensor("int64")}},
         .infer = inferRoiAlign},
    }};
static_assert(isWellFormed(kRoiAlign));

}  // namespace onyx::ops::ai_onnx
