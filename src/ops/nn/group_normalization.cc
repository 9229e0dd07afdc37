// GroupNormalization (ai.onnx), versions 18, 21.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs18 = {{"X", "T"}, {"scale", "T"}, {"bias", "T"}};
constexpr Formals kOutputs18 = {{"Y", "T"}};

extern const Operator kGroupNormalization;
constexpr Operator kGroupNormalization{
    .domain = kOnnxDomain,
    .name = "GroupNormalization",
    .versions = {
        {.since_version = 18,
         .deprecated = true,
         .inputs = kInputs18,
         .outputs = kOutputs18,
         .attributes = {attr("epsilon", 1e-05f), required("num_groups", kInt)},
         .constraints = {{"T", tensor("float16 float double bfloat16")}}},
        {.since_version = 21,
         .inputs = kInputs18,
         .outputs = kOutputs18,
         .attributes = {attr("epsilon", 1e-05f), required("num_groups", kInt),
                        attr("stash_type", 1)},
         .constraints = {{"T", tensor("bfloat16 float16 float double")}}},
    }};
static_assert(isWellFormed(kGroupNormalization));

}  // namespace onyx::ops::ai_onnx
