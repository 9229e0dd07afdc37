// Multinomial (ai.onnx), versions 7, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs7 = {{"input", "T1"}};
constexpr Formals kOutputs7 = {{"output", "T2"}};
constexpr Attributes kAttributes7 = {attr("dtype", 6), attr("sample_size", 1),
                                     attr("seed", kFloat)};

extern const Operator kMultinomial;
constexpr Operator kMultinomial{
    .domain = kOnnxDomain,
    .name = "Multinomial",
    .versions = {
        {.since_version = 7,
         .inputs = kInputs7,
         .outputs = kOutputs7,
         .attributes = kAttributes7,
         .constraints = {{"T1", tensor("float16 float double")}, {"T2", tensor("int32 int64")}}},
        {.since_version = 22,
         .inputs = kInputs7,
         .outputs = kOutputs7,
         .attributes = kAttributes7,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("int32 int64")}}},
    }};
static_assert(isWellFormed(kMultinomial));

}  // namespace onyx::ops::ai_onnx
