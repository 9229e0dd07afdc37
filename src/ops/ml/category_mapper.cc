// CategoryMapper (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

extern const Operator kCategoryMapper;
constexpr Operator kCategoryMapper{
    .domain = kMlDomain,
    .name = "CategoryMapper",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}},
         .attributes = {attr("cats_int64s", kInts), attr("cats_strings", kStrings),
                        attr("default_int64", -1), attr("default_string", "_Unused")},
         .constraints = {{"T1", tensor("string int64")}, {"T2", tensor("string int64")}}},
    }};
static_assert(isWellFormed(kCategoryMapper));

}  // namespace onyx::ops::ai_onnx_ml
