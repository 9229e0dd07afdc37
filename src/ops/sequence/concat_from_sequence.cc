// ConcatFromSequence (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kConcatFromSequence;
constexpr Operator kConcatFromSequence{
    .domain = kOnnxDomain,
    .name = "ConcatFromSequence",
    .versions = {
        {.since_version = 11,
         .inputs = {{"input_sequence", "S"}},
         .outputs = {{"concat_result", "T"}},
         .attributes = {required("axis", kInt), attr("new_axis", 0)},
         .constraints = {{"S", sequence(kIr3Types)}, {"T", tensor(kIr3Types)}}},
    }};
static_assert(isWellFormed(kConcatFromSequence));

}  // namespace onyx::ops::ai_onnx
