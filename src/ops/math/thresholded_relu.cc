// ThresholdedRelu (ai.onnx), versions 10, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs10 = {{"X", "T"}};
constexpr Formals kOutputs10 = {{"Y", "T"}};
constexpr Attributes kAttributes10 = {attr("alpha", 1.0f)};

extern const Operator kThresholdedRelu;
constexpr Operator kThresholdedRelu{
    .domain = kOnnxDomain,
    .name = "ThresholdedRelu",
    .versions = {
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferSameShape},
        {.since_version = 22,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferSameShape},
    }};
static_assert(isWellFormed(kThresholdedRelu));

}  // namespace onyx::ops::ai_onnx
