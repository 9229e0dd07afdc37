// NegativeLogLikelihoodLoss (ai.onnx), versions 12, 13, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs12 = {{"input", "T"}, {"target", "Tind"}, optional("weight", "T")};
constexpr Formals kOutputs12 = {{"loss", "T"}};
constexpr Attributes kAttributes12 = {attr("ignore_index", kInt), attr("reduction", "mean")};
constexpr Constraints kConstraints12 = {{"T", tensor("float16 float double")},
                                        {"Tind", tensor("int32 int64")}};

extern const Operator kNegativeLogLikelihoodLoss;
constexpr Operator kNegativeLogLikelihoodLoss{
    .domain = kOnnxDomain,
    .name = "NegativeLogLikelihoodLoss",
    .versions = {
        {.since_version = 12,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = kConstraints12},
        {.since_version = 13,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = kConstraints12},
        {.since_version = 22,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("bfloat16 float16 float double")},
                         {"Tind", tensor("int32 int64")}}},
    }};
static_assert(isWellFormed(kNegativeLogLikelihoodLoss));

}  // namespace onyx::ops::ai_onnx
