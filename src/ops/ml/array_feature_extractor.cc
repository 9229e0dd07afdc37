// ArrayFeatureExtractor (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

extern const Operator kArrayFeatureExtractor;
constexpr Operator kArrayFeatureExtractor{
    .domain = kMlDomain,
    .name = "ArrayFeatureExtractor",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}, {"Y", "tensor(int64)"}},
         .outputs = {{"Z", "T"}},
         .constraints = {{"T", tensor("float double int64 int32 string")},
                         {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kArrayFeatureExtractor));

}  // namespace onyx::ops::ai_onnx_ml
