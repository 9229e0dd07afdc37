// Einsum (ai.onnx), versions 12.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kEinsum;
constexpr Operator kEinsum{
    .domain = kOnnxDomain,
    .name = "Einsum",
    .versions = {
        {.since_version = 12,
         .inputs = {variadic("Inputs", "T", 1)},
         .outputs = {{"Output", "T"}},
         .attributes = {required("equation", kString)},
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}}},
    }};
static_assert(isWellFormed(kEinsum));

}  // namespace onyx::ops::ai_onnx
