// Not (ai.onnx), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kNot;
constexpr Operator kNot{.domain = kOnnxDomain,
                        .name = "Not",
                        .versions = {
                            {.since_version = 1,
                             .inputs = {{"X", "T"}},
                             .outputs = {{"Y", "T"}},
                             .constraints = {{"T", tensor("bool")}},
                             .infer = inferSameShape},
                        }};
static_assert(isWellFormed(kNot));

}  // namespace onyx::ops::ai_onnx
