// NonZero (ai.onnx), versions 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs9 = {{"X", "T"}};
constexpr Formals kOutputs9 = {{"Y", "tensor(int64)"}};

extern const Operator kNonZero;
constexpr Operator kNonZero{
    .domain = kOnnxDomain,
    .name = "NonZero",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 13,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kNonZero));

}  // namespace onyx::ops::ai_onnx
