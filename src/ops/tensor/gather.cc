// Gather (ai.onnx), versions 1, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"data", "T"}, {"indices", "Tind"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("axis", 0)};
constexpr Constraints kConstraints1 = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}};

extern const Operator kGather;
constexpr Operator kGather{
    .domain = kOnnxDomain,
    .name = "Gather",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}}},
    }};
static_assert(isWellFormed(kGather));

}  // namespace onyx::ops::ai_onnx
