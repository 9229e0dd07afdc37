// RMSNormalization (ai.onnx), versions 23.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferRMSNormalization(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

extern const Operator kRMSNormalization;
constexpr Operator kRMSNormalization{
    .domain = kOnnxDomain,
    .name = "RMSNormalization",
    .versions = {
        {.since_version = 23,
         .inputs = {{"X", "T"}, {"scale", "V"}},
         .outputs = {{"Y", "V"}},
         .attributes = {attr("axis", -1), attr("epsilon", 1e-05f), attr("stash_type", 1)},
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"V", tensor("float16 float double bfloat16")}},
         .infer = inferRMSNormalization},
    }};
static_assert(isWellFormed(kRMSNormalization));

}  // namespace onyx::ops::ai_onnx
