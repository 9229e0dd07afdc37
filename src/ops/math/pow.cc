// Pow (ai.onnx), versions 1, 7, 12, 13, 15.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr TypeSet kT1Types12 =
    tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double");
constexpr TypeSet kTTypes13 = tensor("int32 int64 float16 float double bfloat16");
constexpr Formals kInputs1 = {{"X", "T"}, {"Y", "T"}};
constexpr Formals kInputs12 = {{"X", "T"}, {"Y", "T1"}};
constexpr Formals kOutputs1 = {{"Z", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kPow;
constexpr Operator kPow{
    .domain = kOnnxDomain,
    .name = "Pow",
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
        {.since_version = 12,
         .inputs = kInputs12,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("int32 int64 float16 float double")}, {"T1", kT1Types12}},
         .infer = inferBroadcast},
        {.since_version = 13,
         .inputs = kInputs12,
         .outputs = kOutputs1,
         .constraints = {{"T", kTTypes13}, {"T1", kT1Types12}},
         .infer = inferBroadcast},
        {.since_version = 15,
         .inputs = kInputs12,
         .outputs = kOutputs1,
         .constraints = {{"T", kTTypes13},
                         {"T1", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                       "float double bfloat16")}},
         .infer = inferBroadcast},
    }};
static_assert(isWellFormed(kPow));

}  // namespace onyx::ops::ai_onnx
