// LinearClassifier (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

extern const Operator kLinearClassifier;
constexpr Operator kLinearClassifier{
    .domain = kMlDomain,
    .name = "LinearClassifier",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}, {"Z", "tensor(float)"}},
         .attributes = {attr("classlabels_ints", kInts), attr("classlabels_strings", kStrings),
                        required("coefficients", kFloats), attr("intercepts", kFloats),
                        attr("multi_class", 0), attr("post_transform", "NONE")},
         .constraints = {{"T1", tensor("float double int64 int32")},
                         {"T2", tensor("string int64")},
                         {"tensor(float)", tensor("float")}}},
    }};
static_assert(isWellFormed(kLinearClassifier));

}  // namespace onyx::ops::ai_onnx_ml
