// GlobalAveragePool (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferGlobalPool(InferenceContext& ctx) { inferGlobalPooling(ctx); }

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};

extern const Operator kGlobalAveragePool;
constexpr Operator kGlobalAveragePool{
    .domain = kOnnxDomain,
    .name = "GlobalAveragePool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferGlobalPool},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferGlobalPool},
    }};
static_assert(isWellFormed(kGlobalAveragePool));

}  // namespace onyx::ops::ai_onnx
