// Upsample (ai.onnx), versions 1, 7, 9, 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kInputs9 = {{"X", "T"}, {"scales", "tensor(float)"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes9 = {attr("mode", "nearest")};
constexpr Constraints kConstraints9 = {{"T", tensor(kIr3Types)},
                                       {"tensor(float)", tensor("float")}};

extern const Operator kUpsample;
constexpr Operator kUpsample{
    .domain = kOnnxDomain,
    .name = "Upsample",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {required("height_scale", kFloat), attr("mode", "nearest"),
                        required("width_scale", kFloat)},
         .constraints = {{"T", tensor("bool int32 int64 float16 float double")}}},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("mode", "nearest"), required("scales", kFloats)},
         .constraints = {{"T", tensor(kIr3Types)}}},
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs1,
         .attributes = kAttributes9,
         .constraints = kConstraints9},
        {.since_version = 10,
         .deprecated = true,
         .inputs = kInputs9,
         .outputs = kOutputs1,
         .attributes = kAttributes9,
         .constraints = kConstraints9},
    }};
static_assert(isWellFormed(kUpsample));

}  // namespace onyx::ops::ai_onnx
