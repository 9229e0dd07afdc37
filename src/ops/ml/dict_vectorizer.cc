// DictVectorizer (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

extern const Operator kDictVectorizer;
constexpr Operator kDictVectorizer{
    .domain = kMlDomain,
    .name = "DictVectorizer",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}},
         .attributes = {attr("int64_vocabulary", kInts), attr("string_vocabulary", kStrings)},
         .constraints = {{"T1",
                          types("map(string, int64), map(int64, string), map(int64, float), "
                                "map(int64, double), map(string, float), map(string, double)")},
                         {"T2", tensor("int64 float double string")}}},
    }};
static_assert(isWellFormed(kDictVectorizer));

}  // namespace onyx::ops::ai_onnx_ml
