// SwiGLU (ai.onnx), versions 28.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "onyx/ops/inference_context.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// A * sigmoid(alpha * A) * B, A and B of one shape.
Status runSwiGLU(KernelContext& ctx) {
  const Array* gate = ctx.inputArray(0);
  const Array* value = ctx.inputArray(1);
  if (gate == nullptr || value == nullptr) return ctx.fail("needs two tensor inputs");
  if (gate->type() != value->type()) return ctx.fail("A and B have different element types");
  if (gate->shape() != value->shape()) return ctx.fail("A and B have different shapes");
  float alpha = ctx.floatAttribute("alpha").value_or(1.0f);
  ElementType type = gate->type();
  bool narrow = isNarrowFloat(type);
  Array a = narrow ? widenToFloat(*gate) : *gate;
  Array b = narrow ? widenToFloat(*value) : *value;
  Array out(a.type(), a.shape());
  bool ok = dispatchFloat(a.type(), [&]<class T>() {
    const T* x = a.data<T>();
    const T* y = b.data<T>();
    T* z = out.data<T>();
    T k = static_cast<T>(alpha);
    parallelFor(ctx, out.size(), elementwise::kGrain, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        T t = k * x[i];
        T sigmoid = t >= T(0) ? T(1) / (T(1) + std::exp(-t)) : std::exp(t) / (T(1) + std::exp(t));
        z[i] = x[i] * sigmoid * y[i];
      }
    });
  });
  if (!ok) return elementwise::unsupported(ctx, type);
  ctx.setOutput(0, elementwise::narrowTo(std::move(out), type));
  return Status::ok();
}

}  // namespace

// SwiGLU as the spec defines it: Swish(A) * B.
constexpr const char* kBody28 = R"ONNX(
<domain: "", opset_import: ["" : 28]>
SwiGLU <alpha: float = 1.0> (A, B) => (Y) {
  gate = Swish <alpha: float = @alpha> (A)
  Y = Mul (gate, B)
}
)ONNX";
namespace {

// A and B have one shape (no broadcasting), which Y has; each dim is the better known of the two.
void inferSwiGLU(InferenceContext& ctx) {
  const Dims* gate = ctx.inputShape(0);
  const Dims* value = ctx.inputShape(1);
  if (gate == nullptr || value == nullptr) {
    if (gate != nullptr || value != nullptr)
      ctx.setOutputShape(0, gate != nullptr ? *gate : *value);
    return;
  }
  if (gate->size() != value->size()) {
    ctx.fail("A has rank " + std::to_string(gate->size()) + " and B rank " +
             std::to_string(value->size()) + "; SwiGLU needs one shape");
    return;
  }
  Dims out = *gate;
  for (size_t i = 0; i < out.size(); ++i) {
    DimValue other = (*value)[i];
    if (out[i].isKnown() && other.isKnown()) {
      if (out[i].value() != other.value()) {
        ctx.fail("A and B differ at axis " + std::to_string(i) + ": " +
                 std::to_string(out[i].value()) + " and " + std::to_string(other.value()));
        return;
      }
    } else if (other.isKnown()) {
      out[i] = other;
    }
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

extern const Operator kSwiGLU;
constexpr Operator kSwiGLU{.domain = kOnnxDomain,
                           .name = "SwiGLU",
                           .versions = {
                               {.since_version = 28,
                                .inputs = {{"A", "T"}, {"B", "T"}},
                                .outputs = {{"Y", "T"}},
                                .attributes = {attr("alpha", 1.0f)},
                                .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                                .function_bodies = {{28, kBody28}},
                                .infer = inferSwiGLU,
                                .kernel = runSwiGLU},
                           }};
static_assert(isWellFormed(kSwiGLU));

}  // namespace onyx::ops::ai_onnx
