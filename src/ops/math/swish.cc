// Swish (ai.onnx), versions 24.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/math/vector_math.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/wider_vectors.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

ONYX_WIDER_VECTORS void swishFloats(const float* from, float* to, size_t count, float alpha) {
  for (size_t i = 0; i < count; ++i) {
    to[i] = from[i] * vector_math::sigmoidFloat(alpha * from[i]);
  }
}

// x * sigmoid(alpha * x); FLOAT with vector_math's sigmoid.
Status runSwish(KernelContext& ctx) {
  float alpha = ctx.floatAttribute("alpha").value_or(1.0f);
  auto floats = [alpha](const float* from, float* to, size_t count) {
    swishFloats(from, to, count, alpha);
  };
  return elementwise::unaryFloatArrayKernel(ctx, floats, [alpha](auto x) {
    using T = decltype(x);
    T z = static_cast<T>(alpha) * x;
    T sigmoid = z >= T(0) ? T(1) / (T(1) + std::exp(-z)) : std::exp(z) / (T(1) + std::exp(z));
    return x * sigmoid;
  });
}

}  // namespace

// Swish as the spec defines it: X * sigmoid(alpha * X).
constexpr const char* kBody24 = R"ONNX(
<domain: "", opset_import: ["" : 24]>
Swish <alpha: float = 1.0> (X) => (Y) {
  alpha_f = Constant <value_float: float = @alpha> ()
  alpha_x = CastLike (alpha_f, X)
  alpha_times_x = Mul (alpha_x, X)
  gate = Sigmoid (alpha_times_x)
  Y = Mul (X, gate)
}
)ONNX";

extern const Operator kSwish;
constexpr Operator kSwish{.domain = kOnnxDomain,
                          .name = "Swish",
                          .versions = {
                              {.since_version = 24,
                               .inputs = {{"X", "T"}},
                               .outputs = {{"Y", "T"}},
                               .attributes = {attr("alpha", 1.0f)},
                               .constraints = {{"T", tensor("float16 float bfloat16 double")}},
                               .function_bodies = {{24, kBody24}},
                               .infer = inferSameShape,
                               .kernel = runSwish},
                          }};
static_assert(isWellFormed(kSwish));

}  // namespace onyx::ops::ai_onnx
