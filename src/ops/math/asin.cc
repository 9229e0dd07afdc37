// Asin (ai.onnx), versions 7, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs7 = {{"input", "T"}};
constexpr Formals kOutputs7 = {{"output", "T"}};

extern const Operator kAsin;
constexpr Operator kAsin{.domain = kOnnxDomain,
                         .name = "Asin",
                         .versions = {
                             {.since_version = 7,
                              .inputs = kInputs7,
                              .outputs = kOutputs7,
                              .constraints = {{"T", tensor("float16 float double")}},
                              .infer = inferSameShape},
                             {.since_version = 22,
                              .inputs = kInputs7,
                              .outputs = kOutputs7,
                              .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                              .infer = inferSameShape},
                         }};
static_assert(isWellFormed(kAsin));

}  // namespace onyx::ops::ai_onnx
