// Shrink (ai.onnx), versions 9.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferShrink(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

extern const Operator kShrink;
constexpr Operator kShrink{
    .domain = kOnnxDomain,
    .name = "Shrink",
    .versions = {
        {.since_version = 9,
         .inputs = {{"input", "T"}},
         .outputs = {{"output", "T"}},
         .attributes = {attr("bias", 0.0f), attr("lambd", 0.5f)},
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferShrink},
    }};
static_assert(isWellFormed(kShrink));

}  // namespace onyx::ops::ai_onnx
