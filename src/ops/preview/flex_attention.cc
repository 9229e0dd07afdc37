// FlexAttention (ai.onnx.preview), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_preview {
using namespace dsl;

extern const Operator kFlexAttention;
constexpr Operator kFlexAttention{
    .domain = kPreviewDomain,
    .name = "FlexAttention",
    .versions = {
        {.since_version = 1,
         .inputs = {{"Q", "T1"}, {"K", "T1"}, {"V", "T1"}},
         .outputs = {{"Y", "T1"}},
         .attributes = {attr("prob_mod", kGraph), attr("scale", kFloat), attr("score_mod", kGraph),
                        attr("softmax_precision", kInt)},
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}}},
    }};
static_assert(isWellFormed(kFlexAttention));

}  // namespace onyx::ops::ai_onnx_preview
