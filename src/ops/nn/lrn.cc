// LRN (ai.onnx), versions 1, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferLRN(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {attr("alpha", 0.0001f), attr("beta", 0.75f),
                                     attr("bias", 1.0f), required("size", kInt)};

extern const Operator kLRN;
constexpr Operator kLRN{.domain = kOnnxDomain,
                        .name = "LRN",
                        .versions = {
                            {.since_version = 1,
                             .inputs = kInputs1,
                             .outputs = kOutputs1,
                             .attributes = kAttributes1,
                             .constraints = {{"T", tensor("float16 float double")}},
                             .infer = inferLRN},
                            {.since_version = 13,
                             .inputs = kInputs1,
                             .outputs = kOutputs1,
                             .attributes = kAttributes1,
                             .constraints = {{"T", tensor("float16 float double bfloat16")}},
                             .infer = inferLRN},
                        }};
static_assert(isWellFormed(kLRN));

}  // namespace onyx::ops::ai_onnx
