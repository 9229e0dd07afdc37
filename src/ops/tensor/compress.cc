// Compress (ai.onnx), versions 9, 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs9 = {{"input", "T"}, {"condition", "T1"}};
constexpr Formals kOutputs9 = {{"output", "T"}};
constexpr Attributes kAttributes9 = {attr("axis", kInt)};
constexpr Constraints kConstraints9 = {{"T", tensor(kIr3Types)}, {"T1", tensor("bool")}};

extern const Operator kCompress;
constexpr Operator kCompress{.domain = kOnnxDomain,
                             .name = "Compress",
                             .versions = {
                                 {.since_version = 9,
                                  .inputs = kInputs9,
                                  .outputs = kOutputs9,
                                  .attributes = kAttributes9,
                                  .constraints = kConstraints9},
                                 {.since_version = 11,
                                  .inputs = kInputs9,
                                  .outputs = kOutputs9,
                                  .attributes = kAttributes9,
                                  .constraints = kConstraints9},
                             }};
static_assert(isWellFormed(kCompress));

}  // namespace onyx::ops::ai_onnx
