// Expand (ai.onnx), versions 8, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs8 = {{"input", "T"}, {"shape", "tensor(int64)"}};
constexpr Formals kOutputs8 = {{"output", "T"}};

extern const Operator kExpand;
constexpr Operator kExpand{
    .domain = kOnnxDomain,
    .name = "Expand",
    .versions = {
        {.since_version = 8,
         .inputs = kInputs8,
         .outputs = kOutputs8,
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 13,
         .inputs = kInputs8,
         .outputs = kOutputs8,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kExpand));

}  // namespace onyx::ops::ai_onnx
