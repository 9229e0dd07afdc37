// DynamicQuantizeLinear (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kDynamicQuantizeLinear;
constexpr Operator kDynamicQuantizeLinear{
    .domain = kOnnxDomain,
    .name = "DynamicQuantizeLinear",
    .versions = {
        {.since_version = 11,
         .inputs = {{"x", "T1"}},
         .outputs = {{"y", "T2"}, {"y_scale", "tensor(float)"}, {"y_zero_point", "T2"}},
         .constraints = {{"T1", tensor("float")},
                         {"T2", tensor("uint8")},
                         {"tensor(float)", tensor("float")}}},
    }};
static_assert(isWellFormed(kDynamicQuantizeLinear));

}  // namespace onyx::ops::ai_onnx
