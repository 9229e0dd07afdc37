// Sign (ai.onnx), versions 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// -1, 0 or 1; NaN stays NaN.
Status runSign(KernelContext& ctx) {
  return elementwise::unaryArithmeticKernel(ctx, [](auto x) {
    using T = decltype(x);
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x)) return x;
    }
    return x > T(0) ? T(1) : (x < T(0) ? static_cast<T>(-1) : T(0));
  });
}

}  // namespace

constexpr Formals kInputs9 = {{"input", "T"}};
constexpr Formals kOutputs9 = {{"output", "T"}};

extern const Operator kSign;
constexpr Operator kSign{
    .domain = kOnnxDomain,
    .name = "Sign",
    .versions = {
        {.since_version = 9,
         .traits = kElementwise,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferSameShape,
         .kernel = runSign},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .infer = inferSameShape,
         .kernel = runSign,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kSign));

}  // namespace onyx::ops::ai_onnx
