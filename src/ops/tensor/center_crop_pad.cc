// CenterCropPad (ai.onnx), versions 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kCenterCropPad;
constexpr Operator kCenterCropPad{
    .domain = kOnnxDomain,
    .name = "CenterCropPad",
    .versions = {
        {.since_version = 18,
         .inputs = {{"input_data", "T"}, {"shape", "Tind"}},
         .outputs = {{"output_data", "T"}},
         .attributes = {attr("axes", kInts)},
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}}},
    }};
static_assert(isWellFormed(kCenterCropPad));

}  // namespace onyx::ops::ai_onnx
