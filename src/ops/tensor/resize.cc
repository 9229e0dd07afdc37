// Resize (ai.onnx), versions 10, 11, 13, 18, 19.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs13 = {{"X", "T1"},
                               optional("roi", "T2"),
                               optional("scales", "tensor(float)"),
                               optional("sizes", "tensor(int64)")};
constexpr Formals kOutputs11 = {{"Y", "T1"}};
constexpr Attributes kAttributes11 = {attr("coordinate_transformation_mode", "half_pixel"),
                                      attr("cubic_coeff_a", -0.75f),
                                      attr("exclude_outside", 0),
                                      attr("extrapolation_value", 0.0f),
                                      attr("mode", "nearest"),
                                      attr("nearest_mode", "round_prefer_floor")};
constexpr Attributes kAttributes18 = {attr("antialias", 0),
                                      attr("axes", kInts),
                                      attr("coordinate_transformation_mode", "half_pixel"),
                                      attr("cubic_coeff_a", -0.75f),
                                      attr("exclude_outside", 0),
                                      attr("extrapolation_value", 0.0f),
                                      attr("keep_aspect_ratio_policy", "stretch"),
                                      attr("mode", "nearest"),
                                      attr("nearest_mode", "round_prefer_floor")};
constexpr Constraints kConstraints13 = {{"T1", tensor(kIr4Types)},
                                        {"T2", tensor("float16 float double")},
                                        {"tensor(float)", tensor("float")},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kResize;
constexpr Operator kResize{
    .domain = kOnnxDomain,
    .name = "Resize",
    .versions = {
        {.since_version = 10,
         .inputs = {{"X", "T"}, {"scales", "tensor(float)"}},
         .outputs = {{"Y", "T"}},
         .attributes = {attr("mode", "nearest")},
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(float)", tensor("float")}}},
        {.since_version = 11,
         .inputs = {{"X", "T1"},
                    {"roi", "T2"},
                    {"scales", "tensor(float)"},
                    optional("sizes", "tensor(int64)")},
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T1", tensor(kIr3Types)},
                         {"T2", tensor("float16 float double")},
                         {"tensor(float)", tensor("float")},
                         {"tensor(int64)", tensor("int64")}}},
        {.since_version = 13,
         .inputs = kInputs13,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = kConstraints13},
        {.since_version = 18,
         .inputs = kInputs13,
         .outputs = kOutputs11,
         .attributes = kAttributes18,
         .constraints = kConstraints13},
        {.since_version = 19,
         .inputs = kInputs13,
         .outputs = kOutputs11,
         .attributes = kAttributes18,
         .constraints = kConstraints13},
    }};
static_assert(isWellFormed(kResize));

}  // namespace onyx::ops::ai_onnx
