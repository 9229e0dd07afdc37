// Flatten (ai.onnx), versions 1, 9, 11, 13, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("axis", 1)};
constexpr Constraints kConstraints9 = {{"T", tensor(kIr3Types)}};

extern const Operator kFlatten;
constexpr Operator kFlatten{.domain = kOnnxDomain,
                            .name = "Flatten",
                            .versions = {
                                {.since_version = 1,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = {{"T", tensor("float16 float double")}}},
                                {.since_version = 9,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = kConstraints9},
                                {.since_version = 11,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = kConstraints9},
                                {.since_version = 13,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = {{"T", tensor(kIr4Types)}}},
                                {.since_version = 21,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = {{"T", tensor(kIr10Types)}}},
                                {.since_version = 23,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = {{"T", tensor(kIr11Types)}}},
                                {.since_version = 24,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = {{"T", tensor(kIr12Types)}}},
                                {.since_version = 25,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = {{"T", tensor(kIr13Types)}}},
                            }};
static_assert(isWellFormed(kFlatten));

}  // namespace onyx::ops::ai_onnx
