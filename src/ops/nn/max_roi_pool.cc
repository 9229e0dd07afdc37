// MaxRoiPool (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"X", "T"}, {"rois", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {required("pooled_shape", kInts), attr("spatial_scale", 1.0f)};

extern const Operator kMaxRoiPool;
constexpr Operator kMaxRoiPool{
    .domain = kOnnxDomain,
    .name = "MaxRoiPool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("float16 float double")}}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}}},
    }};
static_assert(isWellFormed(kMaxRoiPool));

}  // namespace onyx::ops::ai_onnx
