// LayerNormalization (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it. unchecked_attributes added by hand:
// onnx's schema lets the node carry attributes it does not declare.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kLayerNormalization;
constexpr Operator kLayerNormalization{
    .domain = kOnnxDomain,
    .name = "LayerNormalization",
    .versions = {
        {.since_version = 17,
         .inputs = {{"X", "T"}, {"Scale", "T"}, optional("B", "T")},
         .outputs = {{"Y", "T"}, optional("Mean", "U"), optional("InvStdDev", "U")},
         .attributes = {attr("axis", -1), attr("epsilon", 1e-05f), attr("stash_type", 1)},
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"U", tensor("float bfloat16")}},
         .unchecked_attributes = true},
    }};
static_assert(isWellFormed(kLayerNormalization));

}  // namespace onyx::ops::ai_onnx
