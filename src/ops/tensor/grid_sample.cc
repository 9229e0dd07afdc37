// GridSample (ai.onnx), versions 16, 20, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs16 = {{"X", "T1"}, {"grid", "T2"}};
constexpr Formals kOutputs16 = {{"Y", "T1"}};
constexpr Attributes kAttributes20 = {attr("align_corners", 0), attr("mode", "linear"),
                                      attr("padding_mode", "zeros")};
constexpr Constraints kConstraints16 = {{"T1", tensor(kIr3Types)},
                                        {"T2", tensor("float16 float double")}};

extern const Operator kGridSample;
constexpr Operator kGridSample{
    .domain = kOnnxDomain,
    .name = "GridSample",
    .versions = {
        {.since_version = 16,
         .inputs = kInputs16,
         .outputs = kOutputs16,
         .attributes = {attr("align_corners", 0), attr("mode", "bilinear"),
                        attr("padding_mode", "zeros")},
         .constraints = kConstraints16},
        {.since_version = 20,
         .inputs = kInputs16,
         .outputs = kOutputs16,
         .attributes = kAttributes20,
         .constraints = kConstraints16},
        {.since_version = 22,
         .inputs = kInputs16,
         .outputs = kOutputs16,
         .attributes = kAttributes20,
         .constraints = {{"T1", tensor(kIr4Types)},
                         {"T2", tensor("bfloat16 float16 float double")}}},
    }};
static_assert(isWellFormed(kGridSample));

}  // namespace onyx::ops::ai_onnx
