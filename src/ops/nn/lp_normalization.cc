// LpNormalization (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferLpNormalization(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("axis", -1), attr("p", 2)};

extern const Operator kLpNormalization;
constexpr Operator kLpNormalization{
    .domain = kOnnxDomain,
    .name = "LpNormalization",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferLpNormalization},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferLpNormalization},
    }};
static_assert(isWellFormed(kLpNormalization));

}  // namespace onyx::ops::ai_onnx
