// Where (ai.onnx), versions 9, 16.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs9 = {{"condition", "B"}, {"X", "T"}, {"Y", "T"}};
constexpr Formals kOutputs9 = {{"output", "T"}};

extern const Operator kWhere;
constexpr Operator kWhere{.domain = kOnnxDomain,
                          .name = "Where",
                          .versions = {
                              {.since_version = 9,
                               .inputs = kInputs9,
                               .outputs = kOutputs9,
                               .constraints = {{"B", tensor("bool")}, {"T", tensor(kIr3Types)}},
                               .infer = inferBroadcast},
                              {.since_version = 16,
                               .inputs = kInputs9,
                               .outputs = kOutputs9,
                               .constraints = {{"B", tensor("bool")}, {"T", tensor(kIr4Types)}},
                               .infer = inferBroadcast},
                          }};
static_assert(isWellFormed(kWhere));

}  // namespace onyx::ops::ai_onnx
