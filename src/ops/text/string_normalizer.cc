// StringNormalizer (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kStringNormalizer;
constexpr Operator kStringNormalizer{
    .domain = kOnnxDomain,
    .name = "StringNormalizer",
    .versions = {
        {.since_version = 10,
         .inputs = {{"X", "tensor(string)"}},
         .outputs = {{"Y", "tensor(string)"}},
         .attributes = {attr("case_change_action", "NONE"), attr("is_case_sensitive", 0),
                        attr("locale", kString), attr("stopwords", kStrings)},
         .constraints = {{"tensor(string)", tensor("string")}}},
    }};
static_assert(isWellFormed(kStringNormalizer));

}  // namespace onyx::ops::ai_onnx
