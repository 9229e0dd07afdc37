// Mod (ai.onnx), versions 10, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// With fmod = 0 the remainder takes the divisor's sign (Python's %) for integers; with fmod
// = 1, and for floating types either way, the dividend's (C's fmod). An integer divided by
// 0 gives 0, and so does a floating fmod = 0 remainder that is NaN, as onnx's reference
// gives.
Status runMod(KernelContext& ctx) {
  int64_t fmod = ctx.intAttribute("fmod").value_or(0);
  if (fmod != 0 && fmod != 1) return ctx.fail("fmod must be 0 or 1");
  bool truncated = fmod == 1;
  return elementwise::binaryArithmeticKernel(ctx, [truncated](auto a, auto b) {
    using T = decltype(a);
    if constexpr (std::is_floating_point_v<T>) {
      T r = std::fmod(a, b);
      if (!truncated && std::isnan(r)) return T(0);
      return r;
    } else {
      return elementwise::integerMod(a, b, truncated);
    }
  });
}

}  // namespace

constexpr Formals kInputs10 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs10 = {{"C", "T"}};
constexpr Attributes kAttributes10 = {attr("fmod", 0)};

extern const Operator kMod;
constexpr Operator kMod{
    .domain = kOnnxDomain,
    .name = "Mod",
    .versions = {
        {.since_version = 10,
         .traits = kElementwise,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferBroadcast,
         .kernel = runMod},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .infer = inferBroadcast,
         .kernel = runMod,
         .step = typesOnly("bfloat16 added; fmod semantics spelled out, unchanged")},
    }};
static_assert(isWellFormed(kMod));

}  // namespace onyx::ops::ai_onnx
