// Mod (ai.onnx), versions 10, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs10 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs10 = {{"C", "T"}};
constexpr Attributes kAttributes10 = {attr("fmod", 0)};

extern const Operator kMod;
constexpr Operator kMod{
    .domain = kOnnxDomain,
    .name = "Mod",
    .versions = {
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferBroadcast},
        {.since_version = 13,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .infer = inferBroadcast},
    }};
static_assert(isWellFormed(kMod));

}  // namespace onyx::ops::ai_onnx
