// AffineGrid (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kAffineGrid;
constexpr Operator kAffineGrid{
    .domain = kOnnxDomain,
    .name = "AffineGrid",
    .versions = {
        {.since_version = 20,
         .inputs = {{"theta", "T1"}, {"size", "T2"}},
         .outputs = {{"grid", "T1"}},
         .attributes = {attr("align_corners", 0)},
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}, {"T2", tensor("int64")}}},
    }};
static_assert(isWellFormed(kAffineGrid));

}  // namespace onyx::ops::ai_onnx
