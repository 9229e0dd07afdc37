// Abs (ai.onnx), versions 1, 6, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// |x|; the most negative integer stays itself, as it does in two's complement.
Status runAbs(KernelContext& ctx) {
  return elementwise::unaryArithmeticKernel(ctx, [](auto x) {
    using T = decltype(x);
    if constexpr (std::is_floating_point_v<T>) {
      return std::abs(x);
    } else if constexpr (std::is_signed_v<T>) {
      return x < 0 ? elementwise::wrapNeg(x) : x;
    } else {
      return x;
    }
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};

extern const Operator kAbs;
constexpr Operator kAbs{
    .domain = kOnnxDomain,
    .name = "Abs",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferSameShape,
         .kernel = runAbs},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferSameShape,
         .kernel = runAbs,
         .step = {.reviewed = true,
                  .change = "consumed_inputs removed; integer types added",
                  .up = dropConsumedInputs}},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .infer = inferSameShape,
         .kernel = runAbs,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kAbs));

}  // namespace onyx::ops::ai_onnx
