// RoiAlign (ai.onnx), versions 10, 16, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

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
         .constraints = kConstraints10},
        {.since_version = 16,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes16,
         .constraints = kConstraints10},
        {.since_version = 22,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes16,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}, {"T2", tensor("int64")}}},
    }};
static_assert(isWellFormed(kRoiAlign));

}  // namespace onyx::ops::ai_onnx
