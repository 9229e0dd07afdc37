// Bernoulli (ai.onnx), versions 15, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs15 = {{"input", "T1"}};
constexpr Formals kOutputs15 = {{"output", "T2"}};
constexpr Attributes kAttributes15 = {attr("dtype", kInt), attr("seed", kFloat)};

extern const Operator kBernoulli;
constexpr Operator kBernoulli{
    .domain = kOnnxDomain,
    .name = "Bernoulli",
    .versions = {
        {.since_version = 15,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes15,
         .constraints = {{"T1", tensor("float16 float double")},
                         {"T2", tensor("float16 float double bfloat16 uint8 uint16 uint32 uint64 "
                                       "int8 int16 int32 int64 bool")}}},
        {.since_version = 22,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes15,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 "
                                       "float16 float double bool")}}},
    }};
static_assert(isWellFormed(kBernoulli));

}  // namespace onyx::ops::ai_onnx
