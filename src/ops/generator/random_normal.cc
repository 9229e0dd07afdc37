// RandomNormal (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("dtype", 1), attr("mean", 0.0f), attr("scale", 1.0f),
                                     attr("seed", kFloat), required("shape", kInts)};

extern const Operator kRandomNormal;
constexpr Operator kRandomNormal{
    .domain = kOnnxDomain,
    .name = "RandomNormal",
    .versions = {
        {.since_version = 1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("float16 float double")}}},
        {.since_version = 22,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}}},
    }};
static_assert(isWellFormed(kRandomNormal));

}  // namespace onyx::ops::ai_onnx
