// DynamicQuantizeLinear (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <vector>
#include "ops/kernels.h"
#include "ops/lib/quantization_kernels.h"
#include "ops/quantization/quantize_floats.h"
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
  if (x->type() != ElementType::kFloat) return ctx.fail("x must be FLOAT");
  const float* in = x->data<float>();
  // The bounds of each piece, then of the pieces: the smallest and largest are the same
  // whatever the split.
  constexpr size_t kPiece = quant::kElementwisePiece;
  std::vector<quant::FloatBounds> pieces((x->size() + kPiece - 1) / kPiece);
  parallelFor(ctx, pieces.size(), 1, [&](size_t first, size_t last) {
    for (size_t piece = first; piece < last; ++piece) {
      const size_t begin = piece * kPiece;
      pieces[piece] =
          quant::floatBounds(in + begin, std::min(kPiece, x->size() - begin), 0.0f, 0.0f);
    }
  });
  quant::FloatBounds bounds;
  for (const quant::FloatBounds& piece : pieces) {
    bounds.low = std::min(bounds.low, piece.low);
    bounds.high = std::max(bounds.high, piece.high);
    bounds.finite = bounds.finite && piece.finite;
  }
  if (!bounds.finite) return ctx.fail("x holds NaN or an infinity");
  float scale = (bounds.high == bounds.low ? 1.0f : bounds.high - bounds.low) / 255.0f;
  float initial = 0.0f - bounds.low / scale;
  float zero = std::nearbyint(std::clamp(initial, 0.0f, 255.0f));
  Result<Array> made = Array::allocate(ElementType::kUint8, x->shape());
  if (!made) return made.status();
  Array y = std::move(*made);
  quant::forScaleRuns(ctx, x->size(), x->size(), [&](size_t begin, size_t count) {
    quant::quantizeFloatsToUint8(in + begin, count, scale, zero, y.data<uint8_t>() + begin);
  });
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
