// SequenceConstruct (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kSequenceConstruct;
constexpr Operator kSequenceConstruct{
    .domain = kOnnxDomain,
    .name = "SequenceConstruct",
    .versions = {
        {.since_version = 11,
         .inputs = {variadic("inputs", "T", 1)},
         .outputs = {{"output_sequence", "S"}},
         .constraints = {{"T", tensor(kIr3Types)}, {"S", sequence(kIr3Types)}}},
    }};
static_assert(isWellFormed(kSequenceConstruct));

}  // namespace onyx::ops::ai_onnx
