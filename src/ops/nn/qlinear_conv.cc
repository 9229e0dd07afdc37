// QLinearConv (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include <string>

#include "onyx/core/array_elements.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The quantized data is input 0 and the quantized weight input 3.
void inferQLinearConv(InferenceContext& ctx) { inferConvolution(ctx, 0, 3); }

// The int32 convolution of the de-zeroed x and w plus B, scaled by x_scale * w_scale / y_scale
// (w_scale per tensor or per output channel), rounded half to even, plus y_zero_point,
// saturated to y's type (y_zero_point's).
Status runQLinearConv(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* x_scale = ctx.inputArray(1);
  const Array* w = ctx.inputArray(3);
  const Array* w_scale = ctx.inputArray(4);
  const Array* y_scale = ctx.inputArray(6);
  const Array* y_zero = ctx.inputArray(7);
  if (x == nullptr || w == nullptr || x_scale == nullptr || w_scale == nullptr ||
      y_scale == nullptr || y_zero == nullptr) {
    return ctx.fail(
        "needs the tensors x, x_scale, x_zero_point, w, w_scale, w_zero_point, "
        "y_scale and y_zero_point");
  }
  if (x_scale->size() != 1 || y_scale->size() != 1 || y_zero->size() != 1) {
    return ctx.fail("x_scale, y_scale and y_zero_point must be single values");
  }
  if (y_zero->type() != ElementType::kInt8 && y_zero->type() != ElementType::kUint8) {
    return ctx.fail("y_zero_point must be int8 or uint8");
  }
  Result<Array> acc =
      nn::integerConvolution(ctx, *x, ctx.inputArray(2), *w, ctx.inputArray(5), ctx.inputArray(8));
  if (!acc) return acc.status();
  size_t outputs = static_cast<size_t>(w->dim(0));
  if (w_scale->rank() > 1 || (w_scale->size() != 1 && w_scale->size() != outputs)) {
    return ctx.fail("w_scale must be a single value or one per output channel");
  }
  float xs = static_cast<float>(elementAsDouble(*x_scale, 0));
  float ys = static_cast<float>(elementAsDouble(*y_scale, 0));
  double zero = elementAsDouble(*y_zero, 0);
  double low = y_zero->type() == ElementType::kInt8 ? -128 : 0;
  double high = y_zero->type() == ElementType::kInt8 ? 127 : 255;
  std::vector<double> scale(outputs);
  for (size_t m = 0; m < outputs; ++m) {
    float ws = static_cast<float>(elementAsDouble(*w_scale, w_scale->size() == 1 ? 0 : m));
    scale[m] = static_cast<double>(xs * ws / ys);
  }
  Array y(y_zero->type(), acc->shape());
  const int32_t* sums = acc->data<int32_t>();
  size_t per_channel = 1;
  for (size_t a = 2; a < acc->rank(); ++a) per_channel *= static_cast<size_t>(acc->dim(a));
  for (size_t i = 0; i < y.size(); ++i) {
    size_t m = outputs == 0 ? 0 : (i / per_channel) % outputs;
    double value = static_cast<double>(sums[i]) * scale[m] + zero;
    value = std::nearbyint(std::clamp(value, low, high));
    storeDouble(y, i, value);
  }
  ctx.setOutput(0, std::move(y));
  return Status::ok();
}

}  // namespace

extern const Operator kQLinearConv;
constexpr Operator kQLinearConv{
    .domain = kOnnxDomain,
    .name = "QLinearConv",
    .versions = {
        {.since_version = 10,
         .inputs = {{"x", "T1"},
                    {"x_scale", "tensor(float)"},
                    {"x_zero_point", "T1"},
                    {"w", "T2"},
                    {"w_scale", "tensor(float)"},
                    {"w_zero_point", "T2"},
                    {"y_scale", "tensor(float)"},
                    {"y_zero_point", "T3"},
                    optional("B", "T4")},
         .outputs = {{"y", "T3"}},
         .attributes = {attr("auto_pad", "NOTSET"), attr("dilations", kInts), attr("group", 1),
                        attr("kernel_shape", kInts), attr("pads", kInts), attr("strides", kInts)},
         .constraints = {{"T1", tensor("int8 uint8")},
                         {"T2", tensor("int8 uint8")},
                         {"T3", tensor("int8 uint8")},
                         {"T4", tensor("int32")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferQLinearConv,
         .kernel = runQLinearConv},
    }};
static_assert(isWellFormed(kQLinearConv));

}  // namespace onyx::ops::ai_onnx
