// Unique (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kUnique;
constexpr Operator kUnique{
    .domain = kOnnxDomain,
    .name = "Unique",
    .versions = {
        {.since_version = 11,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T"},
                     optional("indices", "tensor(int64)"),
                     optional("inverse_indices", "tensor(int64)"),
                     optional("counts", "tensor(int64)")},
         .attributes = {attr("axis", kInt), attr("sorted", 1)},
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kUnique));

}  // namespace onyx::ops::ai_onnx
