// Celu (ai.onnx), versions 12, 28.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/body_text.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// max(0, x) + min(0, alpha * (e^(x / alpha) - 1)).
Status runCelu(KernelContext& ctx) {
  float alpha = ctx.floatAttribute("alpha").value_or(1.0f);
  if (alpha == 0.0f) return ctx.fail("alpha must not be 0");
  return elementwise::unaryFloatingKernel(ctx, [alpha](auto x) {
    using T = decltype(x);
    T a = static_cast<T>(alpha);
    return x > T(0) ? x : a * std::expm1(x / a);
  });
}

}  // namespace

constexpr Formals kInputs12 = {{"X", "T"}};
constexpr Formals kOutputs12 = {{"Y", "T"}};
constexpr Attributes kAttributes12 = {attr("alpha", 1.0f)};

// Celu 28 as the spec defines it: alpha * Elu(X / alpha) with Elu's alpha 1.
constexpr const char* kBody28 = R"ONNX(
<domain: "", opset_import: ["" : 28]>
Celu <alpha: float = 1.0> (X) => (Y) {
  alpha_f = Constant <value_float: float = @alpha> ()
  alpha_x = CastLike (alpha_f, X)
  scaled = Div (X, alpha_x)
  elu = Elu <alpha = 1.0> (scaled)
  Y = Mul (alpha_x, elu)
}
)ONNX";

namespace {

// Celu 12 as the spec defines it: alpha * Elu(X / alpha), with alpha written into the body as
// a constant (Celu 12 takes float only, so no cast is needed).
Result<std::string> buildCelu12(const FunctionBodyContext& context) {
  float alpha = context.floatAttr("alpha").value_or(1.0f);
  body::BodyText out(context, "Celu");
  out.floats("alpha", {alpha})
      .add("scaled = Div (X, alpha)")
      .add("elu = Elu <alpha = 1.0> (scaled)")
      .add("Y = Mul (alpha, elu)");
  return out.finish();
}

}  // namespace

extern const Operator kCelu;
constexpr Operator kCelu{.domain = kOnnxDomain,
                         .name = "Celu",
                         .versions = {
                             {.since_version = 12,
                              .traits = kElementwise,
                              .inputs = kInputs12,
                              .outputs = kOutputs12,
                              .attributes = kAttributes12,
                              .constraints = {{"T", tensor("float")}},
                              .build_function_body = buildCelu12,
                              .infer = inferSameShape,
                              .kernel = runCelu},
                             {.since_version = 28,
                              .traits = kElementwise,
                              .inputs = kInputs12,
                              .outputs = kOutputs12,
                              .attributes = kAttributes12,
                              .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                              .function_bodies = {{28, kBody28}},
                              .infer = inferSameShape,
                              .kernel = runCelu,
                              .step = typesOnly("bfloat16, float16 and double added")},
                         }};
static_assert(isWellFormed(kCelu));

}  // namespace onyx::ops::ai_onnx
