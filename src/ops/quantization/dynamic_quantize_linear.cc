// DynamicQuantizeLinear (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include "ops/kernels.h"
#include "ops/lib/cast_kernels.h"
#include "ops/lib/quantization_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

// DynamicQuantizeLinear as the spec defines it: the scale maps [min(x, 0), max(x, 0)] onto
// [0, 255], the zero point is the rounded, clipped image of 0.
constexpr const char* kBody11 = R"ONNX(
<domain: "", opset_import: ["" : 11]>
DynamicQuantizeLinear (x) => (y, y_scale, y_zero_point) {
  q_low = Constant <value = float {0.0}> ()
  q_high = Constant <value = float {255.0}> ()
  x_min = ReduceMin <keepdims = 0> (x)
  low = Min (x_min, q_low)
  x_max = ReduceMax <keepdims = 0> (x)
  high = Max (x_max, q_low)
  spread = Sub (high, low)
  scale = Div (spread, q_high)
  low_scaled = Div (low, scale)
  zero_point_f = Sub (q_low, low_scaled)
  zero_point_clipped = Clip (zero_point_f, q_low, q_high)
  zero_point_rounded = Round (zero_point_clipped)
  zero_point = Cast <to = 2> (zero_point_rounded)
  y_scale = Identity (scale)
  y_zero_point = Identity (zero_point)
  y = QuantizeLinear (x, scale, zero_point)
}
)ONNX";
namespace {

// y has x's shape; y_scale and y_zero_point are scalars.
void inferDynamicQuantizeLinear(InferenceContext& ctx) {
  inferSameShape(ctx);
  if (ctx.hasOutput(1)) ctx.setOutputShape(1, {});
  if (ctx.hasOutput(2)) ctx.setOutputShape(2, {});
}

// As the reference computes, in float: the range [min(0, min x), max(0, max x)] mapped onto
// [0, 255].
Status runDynamicQuantizeLinear(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  Array wide = widenToFloat(*x);
  if (wide.type() != ElementType::kFloat) return ctx.fail("x must be FLOAT");
  const float* in = wide.data<float>();
  float low = 0, high = 0;
  for (size_t i = 0; i < wide.size(); ++i) {
    if (!std::isfinite(in[i])) return ctx.fail("x holds NaN or an infinity");
    low = std::min(low, in[i]);
    high = std::max(high, in[i]);
  }
  float scale = (high == low ? 1.0f : high - low) / 255.0f;
  float initial = 0.0f - low / scale;
  float zero = std::nearbyint(std::clamp(initial, 0.0f, 255.0f));
  Array y(ElementType::kUint8, x->shape());
  for (size_t i = 0; i < wide.size(); ++i) {
    float q = std::nearbyint(in[i] / scale) + zero;
    y.data<uint8_t>()[i] = static_cast<uint8_t>(std::clamp(q, 0.0f, 255.0f));
  }
  ctx.setOutput(0, std::move(y));
  ctx.setOutput(1, Array::scalar<float>(ElementType::kFloat, scale));
  ctx.setOutput(2, Array::scalar<uint8_t>(ElementType::kUint8, static_cast<uint8_t>(zero)));
  return Status::ok();
}

}  // namespace

extern const Operator kDynamicQuantizeLinear;
constexpr Operator kDynamicQuantizeLinear{
    .domain = kOnnxDomain,
    .name = "DynamicQuantizeLinear",
    .versions = {
        {.since_version = 11,
         .traits = kQuantization,
         .inputs = {{"x", "T1"}},
         .outputs = {{"y", "T2"}, {"y_scale", "tensor(float)"}, {"y_zero_point", "T2"}},
         .constraints = {{"T1", tensor("float")},
                         {"T2", tensor("uint8")},
                         {"tensor(float)", tensor("float")}},
         .function_bodies = {{11, kBody11}},
         .infer = inferDynamicQuantizeLinear,
         .kernel = runDynamicQuantizeLinear},
    }};
static_assert(isWellFormed(kDynamicQuantizeLinear));

}  // namespace onyx::ops::ai_onnx
