// LinearAttention (ai.onnx), versions 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kLinearAttention;
constexpr Operator kLinearAttention{
    .domain = kOnnxDomain,
    .name = "LinearAttention",
    .versions = {
        {.since_version = 27,
         .inputs = {{"query", "T"},
                    {"key", "T"},
                    {"value", "T"},
                    optional("past_state", "S"),
                    optional("decay", "T"),
                    optional("beta", "T")},
         .outputs = {{"output", "T"}, {"present_state", "S"}},
         .attributes = {attr("chunk_size", 64), required("kv_num_heads", kInt),
                        required("q_num_heads", kInt), attr("scale", 0.0f),
                        attr("update_rule", "gated_delta")},
         .constraints = {{"T", tensor("float16 bfloat16 float")},
                         {"S", tensor("float16 bfloat16 float")}}},
    }};
static_assert(isWellFormed(kLinearAttention));

}  // namespace onyx::ops::ai_onnx
