// HardSwish (ai.onnx), versions 14, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs14 = {{"X", "T"}};
constexpr Formals kOutputs14 = {{"Y", "T"}};

extern const Operator kHardSwish;
constexpr Operator kHardSwish{.domain = kOnnxDomain,
                              .name = "HardSwish",
                              .versions = {
                                  {.since_version = 14,
                                   .inputs = kInputs14,
                                   .outputs = kOutputs14,
                                   .constraints = {{"T", tensor("float16 float double")}},
                                   .infer = inferSameShape},
                                  {.since_version = 22,
                                   .inputs = kInputs14,
                                   .outputs = kOutputs14,
                                   .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                                   .infer = inferSameShape},
                              }};
static_assert(isWellFormed(kHardSwish));

}  // namespace onyx::ops::ai_onnx
