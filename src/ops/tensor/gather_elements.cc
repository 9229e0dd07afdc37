// GatherElements (ai.onnx), versions 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "Tind"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {attr("axis", 0)};

extern const Operator kGatherElements;
constexpr Operator kGatherElements{
    .domain = kOnnxDomain,
    .name = "GatherElements",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}}},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}}},
    }};
static_assert(isWellFormed(kGatherElements));

}  // namespace onyx::ops::ai_onnx
