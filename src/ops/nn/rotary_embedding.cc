// RotaryEmbedding (ai.onnx), versions 23.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferRotaryEmbedding(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

extern const Operator kRotaryEmbedding;
constexpr Operator kRotaryEmbedding{
    .domain = kOnnxDomain,
    .name = "RotaryEmbedding",
    .versions = {
        {.since_version = 23,
         .inputs =
             {{"X", "T"}, {"cos_cache", "T"}, {"sin_cache", "T"}, optional("position_ids", "M")},
         .outputs = {{"Y", "T"}},
         .attributes = {attr("interleaved", 0), attr("num_heads", kInt),
                        attr("rotary_embedding_dim", 0)},
         .constraints = {{"T", tensor("float float16 bfloat16")}, {"M", tensor("int64")}},
         .infer = inferRotaryEmbedding},
    }};
static_assert(isWellFormed(kRotaryEmbedding));

}  // namespace onyx::ops::ai_onnx
