// Gelu (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>

#include "ops/body_text.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/math/vector_math.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

constexpr float kSqrtHalf = 0.70710678118654752440f;
constexpr float kSqrtTwoOverPi = 0.79788456080286535588f;

// FLOAT x Phi(x) with vector_math's erf, which works on whole arrays: the scaled inputs and
// their erf go through buffers on the stack.
void geluFloats(const float* from, float* to, size_t count) {
  constexpr size_t kChunk = 256;
  float scaled[kChunk];
  float erfs[kChunk];
  for (size_t begin = 0; begin < count; begin += kChunk) {
    const size_t length = std::min(kChunk, count - begin);
    const float* x = from + begin;
    for (size_t i = 0; i < length; ++i) scaled[i] = x[i] * kSqrtHalf;
    vector_math::erfFloats(scaled, erfs, length);
    for (size_t i = 0; i < length; ++i) to[begin + i] = 0.5f * x[i] * (1.0f + erfs[i]);
  }
}

// FLOAT tanh approximation as x / (1 + e^(-2u)), which is (1 + tanh(u)) / 2 times x, with
// vector_math's exp; +-0 and NaN where the tanh form gives them.
void geluTanhFloats(const float* from, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float x = from[i];
    const float u = kSqrtTwoOverPi * (x + 0.044715f * x * x * x);
    to[i] = x / (1.0f + vector_math::expFloat(-2.0f * u));
  }
}

// x * Phi(x) with the normal CDF Phi, or its tanh approximation.
Status runGelu(KernelContext& ctx) {
  std::string_view approximate = ctx.stringAttribute("approximate").value_or("none");
  if (approximate == "tanh") {
    return elementwise::unaryFloatArrayKernel(ctx, geluTanhFloats, [](auto x) {
      using T = decltype(x);
      const T k = static_cast<T>(0.79788456080286535588);  // sqrt(2 / pi)
      return T(0.5) * x * (T(1) + std::tanh(k * (x + T(0.044715) * x * x * x)));
    });
  }
  if (approximate != "none") {
    return ctx.fail("approximate is \"" + std::string(approximate) +
                    "\"; it must be \"none\" or \"tanh\"");
  }
  return elementwise::unaryFloatArrayKernel(ctx, geluFloats, [](auto x) {
    using T = decltype(x);
    return T(0.5) * x * (T(1) + std::erf(x * static_cast<T>(0.70710678118654752440)));
  });
}

// Gelu 20 as the spec defines it: 0.5 * X * (1 + erf(X / sqrt(2))), or with approximate = "tanh"
// 0.5 * X * (1 + tanh(sqrt(2 / pi) * (X + 0.044715 * X^3))).
Result<std::string> buildGelu20(const FunctionBodyContext& context) {
  bool tanh = context.stringAttr("approximate").value_or("none") == "tanh";
  body::BodyText out(context, "Gelu");
  out.scalarFloat("half", 0.5f).add("half_x = CastLike (half, X)");
  out.scalarFloat("one", 1.0f).add("one_x = CastLike (one, X)");
  if (tanh) {
    out.scalarFloat("two_over_pi", 0.63661977236f)
        .add("two_over_pi_x = CastLike (two_over_pi, X)")
        .scalarFloat("cubic", 0.044715f)
        .add("cubic_x = CastLike (cubic, X)")
        .add("sqrt_two_over_pi = Sqrt (two_over_pi_x)")
        .scalarFloat("three", 3.0f)
        .add("three_x = CastLike (three, X)")
        .add("x_cubed = Pow (X, three_x)")
        .add("cubic_term = Mul (cubic_x, x_cubed)")
        .add("inner = Sum (X, cubic_term)")
        .add("scaled = Mul (sqrt_two_over_pi, inner)")
        .add("squashed = Tanh (scaled)")
        .add("one_plus = Sum (one_x, squashed)");
  } else {
    out.scalarFloat("two", 2.0f)
        .add("two_x = CastLike (two, X)")
        .add("sqrt_two = Sqrt (two_x)")
        .add("scaled = Div (X, sqrt_two)")
        .add("erf = Erf (scaled)")
        .add("one_plus = Sum (one_x, erf)");
  }
  out.add("half_times_x = Mul (half_x, X)").add("Y = Mul (half_times_x, one_plus)");
  return out.finish();
}

}  // namespace

extern const Operator kGelu;
constexpr Operator kGelu{.domain = kOnnxDomain,
                         .name = "Gelu",
                         .versions = {
                             {.since_version = 20,
                              .traits = kElementwise,
                              .inputs = {{"X", "T"}},
                              .outputs = {{"Y", "T"}},
                              .attributes = {attr("approximate", "none")},
                              .constraints = {{"T", tensor("float16 float double bfloat16")}},
                              .build_function_body = buildGelu20,
                              .infer = inferSameShape,
                              .kernel = runGelu},
                         }};
static_assert(isWellFormed(kGelu));

}  // namespace onyx::ops::ai_onnx
