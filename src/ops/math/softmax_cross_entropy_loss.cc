// SoftmaxCrossEntropyLoss (ai.onnx), versions 12, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs12 = {{"scores", "T"}, {"labels", "Tind"}, optional("weights", "T")};
constexpr Formals kOutputs12 = {{"output", "T"}, optional("log_prob", "T")};
constexpr Attributes kAttributes12 = {attr("ignore_index", kInt), attr("reduction", "mean")};

extern const Operator kSoftmaxCrossEntropyLoss;
constexpr Operator kSoftmaxCrossEntropyLoss{
    .domain = kOnnxDomain,
    .name = "SoftmaxCrossEntropyLoss",
    .versions = {
        {.since_version = 12,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("float16 float double")}, {"Tind", tensor("int32 int64")}}},
        {.since_version = 13,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"Tind", tensor("int32 int64")}}},
    }};
static_assert(isWellFormed(kSoftmaxCrossEntropyLoss));

}  // namespace onyx::ops::ai_onnx
