// STFT (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kSTFT;
constexpr Operator kSTFT{.domain = kOnnxDomain,
                         .name = "STFT",
                         .versions = {
                             {.since_version = 17,
                              .inputs = {{"signal", "T1"},
                                         {"frame_step", "T2"},
                                         optional("window", "T1"),
                                         optional("frame_length", "T2")},
                              .outputs = {{"output", "T1"}},
                              .attributes = {attr("onesided", 1)},
                              .constraints = {{"T1", tensor("float float16 double bfloat16")},
                                              {"T2", tensor("int32 int64")}}},
                         }};
static_assert(isWellFormed(kSTFT));

}  // namespace onyx::ops::ai_onnx
