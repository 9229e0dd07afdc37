// GatherND (ai.onnx), versions 11, 12, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "tensor(int64)"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes12 = {attr("batch_dims", 0)};
constexpr Constraints kConstraints11 = {{"T", tensor(kIr3Types)},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kGatherND;
constexpr Operator kGatherND{
    .domain = kOnnxDomain,
    .name = "GatherND",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .constraints = kConstraints11},
        {.since_version = 12,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes12,
         .constraints = kConstraints11},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kGatherND));

}  // namespace onyx::ops::ai_onnx
