// CastMap (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

extern const Operator kCastMap;
constexpr Operator kCastMap{
    .domain = kMlDomain,
    .name = "CastMap",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}},
         .attributes = {attr("cast_to", "TO_FLOAT"), attr("map_form", "DENSE"), attr("max_map", 1)},
         .constraints = {{"T1", types("map(int64, string), map(int64, float)")},
                         {"T2", tensor("string float int64")}}},
    }};
static_assert(isWellFormed(kCastMap));

}  // namespace onyx::ops::ai_onnx_ml
