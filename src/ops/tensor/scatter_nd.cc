// ScatterND (ai.onnx), versions 11, 13, 16, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "tensor(int64)"}, {"updates", "T"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes16 = {attr("reduction", "none")};
constexpr Constraints kConstraints13 = {{"T", tensor(kIr4Types)},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kScatterND;
constexpr Operator kScatterND{
    .domain = kOnnxDomain,
    .name = "ScatterND",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferSameShape},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .constraints = kConstraints13,
         .infer = inferSameShape},
        {.since_version = 16,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes16,
         .constraints = kConstraints13,
         .infer = inferSameShape},
        {.since_version = 18,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes16,
         .constraints = kConstraints13,
         .infer = inferSameShape},
    }};
static_assert(isWellFormed(kScatterND));

}  // namespace onyx::ops::ai_onnx
