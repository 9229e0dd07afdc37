// MeanVarianceNormalization (ai.onnx), versions 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferMeanVarianceNormalization(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

constexpr Formals kInputs9 = {{"X", "T"}};
constexpr Formals kOutputs9 = {{"Y", "T"}};
constexpr Attributes kAttributes9 = {
    {.name = "axes", .kind = kInts, .has_default = true, .default_ints = {0, 2, 3}}};

extern const Operator kMeanVarianceNormalization;
constexpr Operator kMeanVarianceNormalization{
    .domain = kOnnxDomain,
    .name = "MeanVarianceNormalization",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferMeanVarianceNormalization},
        {.since_version = 13,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .infer = inferMeanVarianceNormalization},
    }};
static_assert(isWellFormed(kMeanVarianceNormalization));

}  // namespace onyx::ops::ai_onnx
