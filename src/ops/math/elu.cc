// Elu (ai.onnx), versions 1, 6, 22.
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

// x for x > 0, alpha * (e^x - 1) otherwise.
Status runElu(KernelContext& ctx) {
  float alpha = ctx.floatAttribute("alpha").value_or(1.0f);
  return elementwise::unaryFloatingKernel(ctx, [alpha](auto x) {
    using T = decltype(x);
    return x > T(0) ? x : static_cast<T>(alpha) * std::expm1(x);
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes6 = {attr("alpha", 1.0f)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

// Elu as the spec defines it (version 6 from opset 18): alpha * (exp(X) - 1) where X < 0,
// else X.
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
Elu <alpha: float = 1.0> (X) => (Y) {
  alpha_f = Constant <value_float: float = @alpha> ()
  alpha_x = CastLike (alpha_f, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  one = Constant <value = float {1.0}> ()
  one_x = CastLike (one, X)
  negative = Less (X, zero_x)
  exp_x = Exp (X)
  expm1 = Sub (exp_x, one_x)
  negative_part = Mul (alpha_x, expm1)
  Y = Where (negative, negative_part, X)
}
)ONNX";

extern const Operator kElu;
constexpr Operator kElu{
    .domain = kOnnxDomain,
    .name = "Elu",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("alpha", 1.0f), attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runElu},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = kConstraints1,
         .function_bodies = {{18, kBody18}},
         .infer = inferSameShape,
         .kernel = runElu,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 22,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .function_bodies = {{22, kBody18}},
         .infer = inferSameShape,
         .kernel = runElu,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kElu));

}  // namespace onyx::ops::ai_onnx
