// Sub (ai.onnx), versions 1, 6, 7, 13, 14.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>

#include "ops/lib/elementwise_kernels.h"
#include "ops/math/float_arithmetic.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferSub(InferenceContext& ctx) { inferBroadcastArithmetic(ctx, Arithmetic::kSubtract); }

// Integers wrap around on overflow; the narrow floating types are computed in FLOAT.
Status runSub(KernelContext& ctx) {
  return elementwise::binaryArithmeticKernel(
      ctx, [](auto a, auto b) { return elementwise::wrapSub(a, b); }, &float_arithmetic::kSub);
}

}  // namespace

constexpr TypeSet kTTypes6 = tensor("uint32 uint64 int32 int64 float16 float double");
constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"C", "T"}};
constexpr Constraints kConstraints6 = {{"T", kTTypes6}};

extern const Operator kSub;
constexpr Operator kSub{
    .domain = kOnnxDomain,
    .name = "Sub",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0), attr("consumed_inputs", kInts)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferSameShape,
         .kernel = runSub},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0)},
         .constraints = kConstraints6,
         .infer = inferSameShape,
         .kernel = runSub,
         .step = {.reviewed = true,
                  .change = "consumed_inputs removed; uint32, uint64, int32 and int64 added",
                  .up = dropConsumedInputs}},
        {.since_version = 7,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints6,
         .infer = inferSub,
         .kernel = runSub,
         .step = kNumpyBroadcastStep},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint32 uint64 int32 int64 float16 float double bfloat16")}},
         .infer = inferSub,
         .kernel = runSub,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 14,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .infer = inferSub,
         .kernel = runSub,
         .step = typesOnly("uint8, uint16, int8 and int16 added")},
    }};
static_assert(isWellFormed(kSub));

}  // namespace onyx::ops::ai_onnx
