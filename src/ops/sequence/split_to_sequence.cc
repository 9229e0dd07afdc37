// SplitToSequence (ai.onnx), versions 11, 24.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs11 = {{"input", "T"}, optional("split", "I")};
constexpr Formals kOutputs11 = {{"output_sequence", "S"}};
constexpr Attributes kAttributes11 = {attr("axis", 0), attr("keepdims", 1)};

extern const Operator kSplitToSequence;
constexpr Operator kSplitToSequence{.domain = kOnnxDomain,
                                    .name = "SplitToSequence",
                                    .versions = {
                                        {.since_version = 11,
                                         .inputs = kInputs11,
                                         .outputs = kOutputs11,
                                         .attributes = kAttributes11,
                                         .constraints = {{"T", tensor(kIr3Types)},
                                                         {"I", tensor("int32 int64")},
                                                         {"S", sequence(kIr3Types)}}},
                                        {.since_version = 24,
                                         .inputs = kInputs11,
                                         .outputs = kOutputs11,
                                         .attributes = kAttributes11,
                                         .constraints = {{"T", tensor(kIr4Types)},
                                                         {"I", tensor("int32 int64")},
                                                         {"S", sequence(kIr4Types)}}},
                                    }};
static_assert(isWellFormed(kSplitToSequence));

}  // namespace onyx::ops::ai_onnx
