// Equal (ai.onnx), versions 1, 7, 11, 13, 19.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"C", "T1"}};
constexpr Constraints kConstraints1 = {{"T", tensor("bool int32 int64")}, {"T1", tensor("bool")}};

extern const Operator kEqual;
constexpr Operator kEqual{
    .domain = kOnnxDomain,
    .name = "Equal",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0)},
         .constraints = kConstraints1,
         .infer = inferSameShape},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferBroadcast},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints =
             {{"T",
               tensor(
                   "bool uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"T1", tensor("bool")}},
         .infer = inferBroadcast},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bool uint8 uint16 uint32 uint64 int8 int16 int32 int64 "
                                      "float16 float double bfloat16")},
                         {"T1", tensor("bool")}},
         .infer = inferBroadcast},
        {.since_version = 19,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bool uint8 uint16 uint32 uint64 int8 int16 int32 int64 "
                                      "float16 float double bfloat16 string")},
                         {"T1", tensor("bool")}},
         .infer = inferBroadcast},
    }};
static_assert(isWellFormed(kEqual));

}  // namespace onyx::ops::ai_onnx
