// ReverseSequence (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kReverseSequence;
constexpr Operator kReverseSequence{
    .domain = kOnnxDomain,
    .name = "ReverseSequence",
    .versions = {
        {.since_version = 10,
         .inputs = {{"input", "T"}, {"sequence_lens", "tensor(int64)"}},
         .outputs = {{"Y", "T"}},
         .attributes = {attr("batch_axis", 1), attr("time_axis", 0)},
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferSameShape},
    }};
static_assert(isWellFormed(kReverseSequence));

}  // namespace onyx::ops::ai_onnx
