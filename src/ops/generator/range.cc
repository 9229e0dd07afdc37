// Range (ai.onnx), versions 11, 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs11 = {{"start", "T"}, {"limit", "T"}, {"delta", "T"}};
constexpr Formals kOutputs11 = {{"output", "T"}};

extern const Operator kRange;
constexpr Operator kRange{
    .domain = kOnnxDomain,
    .name = "Range",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .constraints = {{"T", tensor("float double int16 int32 int64")}}},
        {.since_version = 27,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = {attr("stash_type", 1)},
         .constraints = {{"T", tensor("float double int16 int32 int64 float16 bfloat16")}}},
    }};
static_assert(isWellFormed(kRange));

}  // namespace onyx::ops::ai_onnx
