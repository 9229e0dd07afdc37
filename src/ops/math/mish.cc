// Mish (ai.onnx), versions 18, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs18 = {{"X", "T"}};
constexpr Formals kOutputs18 = {{"Y", "T"}};

extern const Operator kMish;
constexpr Operator kMish{.domain = kOnnxDomain,
                         .name = "Mish",
                         .versions = {
                             {.since_version = 18,
                              .inputs = kInputs18,
                              .outputs = kOutputs18,
                              .constraints = {{"T", tensor("float16 float double")}},
                              .infer = inferSameShape},
                             {.since_version = 22,
                              .inputs = kInputs18,
                              .outputs = kOutputs18,
                              .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                              .infer = inferSameShape},
                         }};
static_assert(isWellFormed(kMish));

}  // namespace onyx::ops::ai_onnx
