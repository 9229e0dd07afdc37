// ThresholdedRelu (ai.onnx), versions 10, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runThresholdedRelu(KernelContext& ctx) {
  float alpha = ctx.floatAttribute("alpha").value_or(1.0f);
  return elementwise::unaryFloatingKernel(ctx, [alpha](auto x) {
    using T = decltype(x);
    return x > static_cast<T>(alpha) ? x : T(0);
  });
}

}  // namespace

constexpr Formals kInputs10 = {{"X", "T"}};
constexpr Formals kOutputs10 = {{"Y", "T"}};
constexpr Attributes kAttributes10 = {attr("alpha", 1.0f)};

// ThresholdedRelu as the spec defines it (version 10 from opset 18): X where X > alpha, else 0.
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
ThresholdedRelu <alpha: float = 1.0> (X) => (Y) {
  alpha_f = Constant <value_float: float = @alpha> ()
  alpha_x = CastLike (alpha_f, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  above = Less (alpha_x, X)
  Y = Where (above, X, zero_x)
}
)ONNX";

extern const Operator kThresholdedRelu;
constexpr Operator kThresholdedRelu{
    .domain = kOnnxDomain,
    .name = "ThresholdedRelu",
    .versions = {
        {.since_version = 10,
         .traits = kElementwise,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("float16 float double")}},
         .function_bodies = {{18, kBody18}},
         .infer = inferSameShape,
         .kernel = runThresholdedRelu},
        {.since_version = 22,
         .traits = kElementwise,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .function_bodies = {{22, kBody18}},
         .infer = inferSameShape,
         .kernel = runThresholdedRelu,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kThresholdedRelu));

}  // namespace onyx::ops::ai_onnx
