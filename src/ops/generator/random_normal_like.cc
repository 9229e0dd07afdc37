// RandomNormalLike (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"input", "T1"}};
constexpr Formals kOutputs1 = {{"output", "T2"}};
constexpr Attributes kAttributes1 = {attr("dtype", kInt), attr("mean", 0.0f), attr("scale", 1.0f),
                                     attr("seed", kFloat)};

extern const Operator kRandomNormalLike;
constexpr Operator kRandomNormalLike{
    .domain = kOnnxDomain,
    .name = "RandomNormalLike",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T1", tensor(kIr3Types)}, {"T2", tensor("float16 float double")}}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T1", tensor(kIr4Types)},
                         {"T2", tensor("bfloat16 float16 float double")}}},
    }};
static_assert(isWellFormed(kRandomNormalLike));

}  // namespace onyx::ops::ai_onnx
