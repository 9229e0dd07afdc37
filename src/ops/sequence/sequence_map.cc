// SequenceMap (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kSequenceMap;
constexpr Operator kSequenceMap{
    .domain = kOnnxDomain,
    .name = "SequenceMap",
    .versions = {
        {.since_version = 17,
         .inputs = {{"input_sequence", "S"}, heterogeneous("additional_inputs", "V", 0)},
         .outputs = {heterogeneous("out_sequence", "S", 1)},
         .attributes = {required("body", kGraph)},
         .constraints = {{"S", sequence(kIr3Types)},
                         {"V", tensor(kIr3Types) | sequence(kIr3Types)}}},
    }};
static_assert(isWellFormed(kSequenceMap));

}  // namespace onyx::ops::ai_onnx
