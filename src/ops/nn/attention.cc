// Attention (ai.onnx), versions 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr TypeSet kUTypes23 =
    tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 float16 float double bool");
constexpr Formals kInputs24 = {{"Q", "T1"},
                               {"K", "T1"},
                               {"V", "T2"},
                               optional("attn_mask", "U"),
                               optional("past_key", "T1"),
                               optional("past_value", "T2"),
                               optional("nonpad_kv_seqlen", "tensor(int64)")};
constexpr Formals kOutputs23 = {{"Y", "T1"},
                                optional("present_key", "T1"),
                                optional("present_value", "T2"),
                                optional("qk_matmul_output", "T1")};
constexpr Attributes kAttributes23 = {
    attr("is_causal", 0),           attr("kv_num_heads", kInt),
    attr("q_num_heads", kInt),      attr("qk_matmul_output_mode", 0),
    attr("scale", kFloat),          attr("softcap", 0.0f),
    attr("softmax_precision", kInt)};
constexpr Constraints kConstraints24 = {{"T1", tensor("bfloat16 float16 float double")},
                                        {"T2", tensor("bfloat16 float16 float double")},
                                        {"U", kUTypes23},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kAttention;
constexpr Operator kAttention{
    .domain = kOnnxDomain,
    .name = "Attention",
    .versions = {
        {.since_version = 23,
         .inputs = {{"Q", "T1"},
                    {"K", "T1"},
                    {"V", "T2"},
                    optional("attn_mask", "U"),
                    optional("past_key", "T1"),
                    optional("past_value", "T2")},
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("bfloat16 float16 float double")},
                         {"U", kUTypes23}}},
        {.since_version = 24,
         .inputs = kInputs24,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = kConstraints24},
        {.since_version = 25,
         .inputs = kInputs24,
         .outputs = kOutputs23,
         .attributes = {attr("is_causal", 0), attr("kv_num_heads", kInt),
                        attr("left_window_size", -1), attr("q_num_heads", kInt),
                        attr("qk_matmul_output_mode", 0), attr("right_window_size", -1),
                        attr("scale", kFloat), attr("softcap", 0.0f),
                        attr("softmax_precision", kInt)},
         .constraints = kConstraints24},
    }};
static_assert(isWellFormed(kAttention));

}  // namespace onyx::ops::ai_onnx
