// Greater (ai.onnx), versions 1, 7, 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>

#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runGreater(KernelContext& ctx) {
  return elementwise::compareKernel(ctx, [](auto a, auto b) { return a > b; });
}

}  // namespace

constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"C", "T1"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")},
                                       {"T1", tensor("bool")}};

extern const Operator kGreater;
constexpr Operator kGreater{
    .domain = kOnnxDomain,
    .name = "Greater",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runGreater},
        {.since_version = 7,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferBroadcast,
         .kernel = runGreater,
         .step = kNumpyBroadcastStep},
        {.since_version = 9,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"T1", tensor("bool")}},
         .infer = inferBroadcast,
         .kernel = runGreater,
         .step = typesOnly("integer types added")},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")},
                         {"T1", tensor("bool")}},
         .infer = inferBroadcast,
         .kernel = runGreater,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGreater));

}  // namespace onyx::ops::ai_onnx
