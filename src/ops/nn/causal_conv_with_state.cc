// CausalConvWithState (ai.onnx), versions 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kCausalConvWithState;
constexpr Operator kCausalConvWithState{
    .domain = kOnnxDomain,
    .name = "CausalConvWithState",
    .versions = {
        {.since_version = 27,
         .inputs =
             {{"input", "T"}, {"weight", "T"}, optional("bias", "T"), optional("past_state", "T")},
         .outputs = {{"output", "T"}, {"present_state", "T"}},
         .attributes = {attr("activation", "none")},
         .constraints = {{"T", tensor("float float16 bfloat16")}}},
    }};
static_assert(isWellFormed(kCausalConvWithState));

}  // namespace onyx::ops::ai_onnx
