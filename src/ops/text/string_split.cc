// StringSplit (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kStringSplit;
constexpr Operator kStringSplit{
    .domain = kOnnxDomain,
    .name = "StringSplit",
    .versions = {
        {.since_version = 20,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}, {"Z", "T3"}},
         .attributes = {attr("delimiter", kString), attr("maxsplit", kInt)},
         .constraints = {{"T1", tensor("string")},
                         {"T2", tensor("string")},
                         {"T3", tensor("int64")}}},
    }};
static_assert(isWellFormed(kStringSplit));

}  // namespace onyx::ops::ai_onnx
