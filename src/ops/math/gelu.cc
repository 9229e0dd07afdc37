// Gelu (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kGelu;
constexpr Operator kGelu{.domain = kOnnxDomain,
                         .name = "Gelu",
                         .versions = {
                             {.since_version = 20,
                              .inputs = {{"X", "T"}},
                              .outputs = {{"Y", "T"}},
                              .attributes = {attr("approximate", "none")},
                              .constraints = {{"T", tensor("float16 float double bfloat16")}},
                              .infer = inferSameShape},
                         }};
static_assert(isWellFormed(kGelu));

}  // namespace onyx::ops::ai_onnx
