// Shrink (ai.onnx), versions 9.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// x + bias below -lambd, x - bias above lambd, 0 between. Integer inputs are computed in
// DOUBLE and truncated back.
Status runShrink(KernelContext& ctx) {
  float bias = ctx.floatAttribute("bias").value_or(0.0f);
  float lambd = ctx.floatAttribute("lambd").value_or(0.5f);
  return elementwise::unaryFloatingKernel<true>(ctx, [bias, lambd](auto x) {
    using T = decltype(x);
    T b = static_cast<T>(bias);
    T l = static_cast<T>(lambd);
    return x < -l ? x + b : (x > l ? x - b : T(0));
  });
}

}  // namespace

// Shrink as the spec defines it (from opset 18): input + bias below -lambd, input - bias
// above lambd, 0 between.
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
Shrink <bias: float = 0.0, lambd: float = 0.5> (input) => (output) {
  lambd_f = Constant <value_float: float = @lambd> ()
  lambd_x = CastLike (lambd_f, input)
  bias_f = Constant <value_float: float = @bias> ()
  bias_x = CastLike (bias_f, input)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, input)
  minus_lambd = Neg (lambd_x)
  below = Less (input, minus_lambd)
  raised = Add (input, bias_x)
  lowered = Sub (input, bias_x)
  above = Less (lambd_x, input)
  upper_or_zero = Where (above, lowered, zero_x)
  output = Where (below, raised, upper_or_zero)
}
)ONNX";
namespace {

void inferShrink(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

extern const Operator kShrink;
constexpr Operator kShrink{
    .domain = kOnnxDomain,
    .name = "Shrink",
    .versions = {
        {.since_version = 9,
         .traits = kElementwise,
         .inputs = {{"input", "T"}},
         .outputs = {{"output", "T"}},
         .attributes = {attr("bias", 0.0f), attr("lambd", 0.5f)},
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .function_bodies = {{18, kBody18}},
         .infer = inferShrink,
         .kernel = runShrink},
    }};
static_assert(isWellFormed(kShrink));

}  // namespace onyx::ops::ai_onnx
