// Celu (ai.onnx), versions 12, 28.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs12 = {{"X", "T"}};
constexpr Formals kOutputs12 = {{"Y", "T"}};
constexpr Attributes kAttributes12 = {attr("alpha", 1.0f)};

extern const Operator kCelu;
constexpr Operator kCelu{.domain = kOnnxDomain,
                         .name = "Celu",
                         .versions = {
                             {.since_version = 12,
                              .inputs = kInputs12,
                              .outputs = kOutputs12,
                              .attributes = kAttributes12,
                              .constraints = {{"T", tensor("float")}},
                              .infer = inferSameShape},
                             {.since_version = 28,
                              .inputs = kInputs12,
                              .outputs = kOutputs12,
                              .attributes = kAttributes12,
                              .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                              .infer = inferSameShape},
                         }};
static_assert(isWellFormed(kCelu));

}  // namespace onyx::ops::ai_onnx
