// SequenceInsert (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kSequenceInsert;
constexpr Operator kSequenceInsert{
    .domain = kOnnxDomain,
    .name = "SequenceInsert",
    .versions = {
        {.since_version = 11,
         .inputs = {{"input_sequence", "S"}, {"tensor", "T"}, optional("position", "I")},
         .outputs = {{"output_sequence", "S"}},
         .constraints = {{"T", tensor(kIr3Types)},
                         {"S", sequence(kIr3Types)},
                         {"I", tensor("int32 int64")}}},
    }};
static_assert(isWellFormed(kSequenceInsert));

}  // namespace onyx::ops::ai_onnx
