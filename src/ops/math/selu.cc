// Selu (ai.onnx), versions 1, 6, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// gamma * x for x > 0, gamma * (alpha * e^x - alpha) otherwise.
Status runSelu(KernelContext& ctx) {
  float alpha = ctx.floatAttribute("alpha").value_or(1.6732632f);
  float gamma = ctx.floatAttribute("gamma").value_or(1.050701f);
  return elementwise::unaryFloatingKernel(ctx, [alpha, gamma](auto x) {
    using T = decltype(x);
    T a = static_cast<T>(alpha);
    T g = static_cast<T>(gamma);
    return x > T(0) ? g * x : g * (a * std::exp(x) - a);
  });
}

// Version 6 changed the defaults of alpha and gamma (1.6732 and 1.0507 before): a node that
// leaves one out gets the value it had, written out.
Status keepCoefficients(NodeDraft& draft) {
  for (const char* name : {"alpha", "gamma"}) {
    const AttributeSpec* spec = draft.from().attribute(name);
    if (draft.attribute(name) == nullptr && spec != nullptr && spec->has_default) {
      draft.setFloatAttr(name, spec->default_float);
    }
  }
  return Status::ok();
}

Status seluUpTo6(NodeDraft& draft) {
  ONYX_RETURN_IF_ERROR(dropConsumedInputs(draft));
  return keepCoefficients(draft);
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes6 = {attr("alpha", 1.6732632f), attr("gamma", 1.050701f)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

// Selu as the spec defines it (version 6 from opset 18):
// gamma * (alpha * exp(X) - alpha) where X < 0, else gamma * X.
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
Selu <alpha: float = 1.6732632, gamma: float = 1.050701> (X) => (Y) {
  alpha_f = Constant <value_float: float = @alpha> ()
  alpha_x = CastLike (alpha_f, X)
  gamma_f = Constant <value_float: float = @gamma> ()
  gamma_x = CastLike (gamma_f, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  exp_x = Exp (X)
  alpha_exp = Mul (alpha_x, exp_x)
  alpha_expm1 = Sub (alpha_exp, alpha_x)
  negative_part = Mul (gamma_x, alpha_expm1)
  positive_part = Mul (gamma_x, X)
  negative = Less (X, zero_x)
  Y = Where (negative, negative_part, positive_part)
}
)ONNX";

extern const Operator kSelu;
constexpr Operator kSelu{
    .domain = kOnnxDomain,
    .name = "Selu",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("alpha", 1.6732f), attr("consumed_inputs", kInts),
                        attr("gamma", 1.0507f)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runSelu},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = kConstraints1,
         .function_bodies = {{18, kBody18}},
         .infer = inferSameShape,
         .kernel = runSelu,
         .step = {.reviewed = true,
                  .change = "consumed_inputs removed; alpha and gamma defaults refined",
                  .up = seluUpTo6,
                  .down = keepCoefficients}},
        {.since_version = 22,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .function_bodies = {{22, kBody18}},
         .infer = inferSameShape,
         .kernel = runSelu,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kSelu));

}  // namespace onyx::ops::ai_onnx
