// Softmax (ai.onnx), versions 1, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/math/math_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("axis", 1)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kSoftmax;
constexpr Operator kSoftmax{.domain = kOnnxDomain,
                            .name = "Softmax",
                            .versions = {
                                {.since_version = 1,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = kConstraints1,
                                 .infer = inferSoftmaxFamily},
                                {.since_version = 11,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = kAttributes1,
                                 .constraints = kConstraints1,
                                 .infer = inferSoftmaxFamily},
                                {.since_version = 13,
                                 .inputs = kInputs1,
                                 .outputs = kOutputs1,
                                 .attributes = {attr("axis", -1)},
                                 .constraints = {{"T", tensor("float16 float double bfloat16")}},
                                 .infer = inferSoftmaxFamily},
                            }};
static_assert(isWellFormed(kSoftmax));

}  // namespace onyx::ops::ai_onnx
