// Swish (ai.onnx), versions 24.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kSwish;
constexpr Operator kSwish{.domain = kOnnxDomain,
                          .name = "Swish",
                          .versions = {
                              {.since_version = 24,
                               .inputs = {{"X", "T"}},
                               .outputs = {{"Y", "T"}},
                               .attributes = {attr("alpha", 1.0f)},
                               .constraints = {{"T", tensor("float16 float bfloat16 double")}},
                               .infer = inferSameShape},
                          }};
static_assert(isWellFormed(kSwish));

}  // namespace onyx::ops::ai_onnx
