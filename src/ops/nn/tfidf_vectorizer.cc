// TfIdfVectorizer (ai.onnx), versions 9.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kTfIdfVectorizer;
constexpr Operator kTfIdfVectorizer{
    .domain = kOnnxDomain,
    .name = "TfIdfVectorizer",
    .versions = {
        {.since_version = 9,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T1"}},
         .attributes = {required("max_gram_length", kInt), required("max_skip_count", kInt),
                        required("min_gram_length", kInt), required("mode", kString),
                        required("ngram_counts", kInts), required("ngram_indexes", kInts),
                        attr("pool_int64s", kInts), attr("pool_strings", kStrings),
                        attr("weights", kFloats)},
         .constraints = {{"T", tensor("string int32 int64")}, {"T1", tensor("float")}}},
    }};
static_assert(isWellFormed(kTfIdfVectorizer));

}  // namespace onyx::ops::ai_onnx
