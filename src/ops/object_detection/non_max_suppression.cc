// NonMaxSuppression (ai.onnx), versions 10, 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// (number of selected boxes, 3): the count depends on the scores.
void inferNonMaxSuppression(InferenceContext& ctx) {
  ctx.setOutputShape(0, {ctx.dims().fresh(), DimValue::known(3)});
}

}  // namespace

constexpr Formals kInputs10 = {{"boxes", "tensor(float)"},
                               {"scores", "tensor(float)"},
                               optional("max_output_boxes_per_class", "tensor(int64)"),
                               optional("iou_threshold", "tensor(float)"),
                               optional("score_threshold", "tensor(float)")};
constexpr Formals kOutputs10 = {{"selected_indices", "tensor(int64)"}};
constexpr Attributes kAttributes10 = {attr("center_point_box", 0)};
constexpr Constraints kConstraints10 = {{"tensor(float)", tensor("float")},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kNonMaxSuppression;
constexpr Operator kNonMaxSuppression{.domain = kOnnxDomain,
                                      .name = "NonMaxSuppression",
                                      .versions = {
                                          {.since_version = 10,
                                           .inputs = kInputs10,
                                           .outputs = kOutputs10,
                                           .attributes = kAttributes10,
                                           .constraints = kConstraints10,
                                           .infer = inferNonMaxSuppression},
                                          {.since_version = 11,
                                           .inputs = kInputs10,
                                           .outputs = kOutputs10,
                                           .attributes = kAttributes10,
                                           .constraints = kConstraints10,
                                           .infer = inferNonMaxSuppression},
                                      }};
static_assert(isWellFormed(kNonMaxSuppression));

}  // namespace onyx::ops::ai_onnx
