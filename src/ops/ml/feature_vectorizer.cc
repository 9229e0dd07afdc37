// FeatureVectorizer (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

extern const Operator kFeatureVectorizer;
constexpr Operator kFeatureVectorizer{
    .domain = kMlDomain,
    .name = "FeatureVectorizer",
    .versions = {
        {.since_version = 1,
         .inputs = {variadic("X", "T1", 1)},
         .outputs = {{"Y", "tensor(float)"}},
         .attributes = {attr("inputdimensions", kInts)},
         .constraints = {{"T1", tensor("int32 int64 float double")},
                         {"tensor(float)", tensor("float")}}},
    }};
static_assert(isWellFormed(kFeatureVectorizer));

}  // namespace onyx::ops::ai_onnx_ml
