// BitwiseNot (ai.onnx), versions 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kBitwiseNot;
constexpr Operator kBitwiseNot{
    .domain = kOnnxDomain,
    .name = "BitwiseNot",
    .versions = {
        {.since_version = 18,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T"}},
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64")}},
         .infer = inferSameShape},
    }};
static_assert(isWellFormed(kBitwiseNot));

}  // namespace onyx::ops::ai_onnx
