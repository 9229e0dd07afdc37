// HannWindow (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/math/math_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kHannWindow;
constexpr Operator kHannWindow{
    .domain = kOnnxDomain,
    .name = "HannWindow",
    .versions = {
        {.since_version = 17,
         .inputs = {{"size", "T1"}},
         .outputs = {{"output", "T2"}},
         .attributes = {attr("output_datatype", 1), attr("periodic", 1)},
         .constraints = {{"T1", tensor("int32 int64")},
                         {"T2", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                       "float double bfloat16")}},
         .infer = inferCosineWindow},
    }};
static_assert(isWellFormed(kHannWindow));

}  // namespace onyx::ops::ai_onnx
