// OneHotEncoder (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

extern const Operator kOneHotEncoder;
constexpr Operator kOneHotEncoder{
    .domain = kMlDomain,
    .name = "OneHotEncoder",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "tensor(float)"}},
         .attributes = {attr("cats_int64s", kInts), attr("cats_strings", kStrings),
                        attr("zeros", 1)},
         .constraints = {{"T", tensor("string int64 int32 float double")},
                         {"tensor(float)", tensor("float")}}},
    }};
static_assert(isWellFormed(kOneHotEncoder));

}  // namespace onyx::ops::ai_onnx_ml
