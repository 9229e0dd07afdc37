// Gradient (ai.onnx.preview.training), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_preview_training {
using namespace dsl;

extern const Operator kGradient;
constexpr Operator kGradient{
    .domain = kPreviewTrainingDomain,
    .name = "Gradient",
    .versions = {
        {.since_version = 1,
         .inputs = {heterogeneous("Inputs", "T1", 1)},
         .outputs = {heterogeneous("Outputs", "T2", 1)},
         .attributes = {required("xs", kStrings), required("y", kString), attr("zs", kStrings)},
         .constraints = {{"T1", tensor(kIr3Types)}, {"T2", tensor("float16 float double")}}},
    }};
static_assert(isWellFormed(kGradient));

}  // namespace onyx::ops::ai_onnx_preview_training
