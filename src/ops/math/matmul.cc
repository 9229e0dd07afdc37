// MatMul (ai.onnx), versions 1, 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferMatMul(InferenceContext& ctx) { inferMatMulShape(ctx); }

}  // namespace

constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};

extern const Operator kMatMul;
constexpr Operator kMatMul{
    .domain = kOnnxDomain,
    .name = "MatMul",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferMatMul},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64")}},
         .infer = inferMatMul},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64 bfloat16")}},
         .infer = inferMatMul},
    }};
static_assert(isWellFormed(kMatMul));

}  // namespace onyx::ops::ai_onnx
