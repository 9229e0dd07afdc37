// AveragePool (ai.onnx), versions 1, 7, 10, 11, 19, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include <string>

#include "ops/kernels.h"
#include "ops/nn/pool_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Dilations exist from version 19; earlier versions have none.
void inferAveragePool(InferenceContext& ctx) { inferPooling(ctx, false); }
void inferAveragePool19(InferenceContext& ctx) { inferPooling(ctx, true); }

// The mean of the taps inside the input, or with count_include_pad of the taps inside the
// padded input (the ceil_mode overhang never counts). Accumulated in double.
Status runAveragePool(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  Result<nn::Window> window = nn::poolWindow(ctx, *x, ctx.opset() >= 19);
  if (!window) return window.status();
  const nn::Window& w = *window;
  bool include_pad = ctx.intAttribute("count_include_pad").value_or(0) != 0;
  Array xs = widenToFloat(*x);
  Result<Array> made = Array::allocate(xs.type(), nn::poolOutputShape(*x, w));
  if (!made) return made.status();
  Array y = std::move(*made);
  size_t planes = static_cast<size_t>(x->dim(0) * x->dim(1));
  size_t volume = w.imageVolume();
  size_t outputs = w.columnVolume();
  bool ok = dispatchFloat(xs.type(), [&]<class T>() {
    const T* in = xs.data<T>();
    T* out = y.data<T>();
    nn::forEachPoolWindow(ctx, w, planes, [&](size_t plane, size_t p, const nn::PoolTaps& taps) {
      const T* image = in + plane * volume;
      double sum = 0;
      taps.each([&](int64_t offset) { sum += static_cast<double>(image[offset]); });
      double count = include_pad ? taps.padded : static_cast<double>(taps.valid());
      out[plane * outputs + p] = static_cast<T>(sum / count);
    });
  });
  if (!ok) return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(y, x->type()));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes10 = {attr("auto_pad", "NOTSET"),   attr("ceil_mode", 0),
                                      attr("count_include_pad", 0), required("kernel_shape", kInts),
                                      attr("pads", kInts),          attr("strides", kInts)};
constexpr Attributes kAttributes19 = {attr("auto_pad", "NOTSET"),      attr("ceil_mode", 0),
                                      attr("count_include_pad", 0),    attr("dilations", kInts),
                                      required("kernel_shape", kInts), attr("pads", kInts),
                                      attr("strides", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kAveragePool;
constexpr Operator kAveragePool{
    .domain = kOnnxDomain,
    .name = "AveragePool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("auto_pad", "NOTSET"), required("kernel_shape", kInts),
                        attr("pads", kInts), attr("strides", kInts)},
         .constraints = kConstraints1,
         .infer = inferAveragePool,
         .kernel = runAveragePool},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("auto_pad", "NOTSET"), attr("count_include_pad", 0),
                        required("kernel_shape", kInts), attr("pads", kInts),
                        attr("strides", kInts)},
         .constraints = kConstraints1,
         .infer = inferAveragePool,
         .kernel = runAveragePool},
        {.since_version = 10,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes10,
         .constraints = kConstraints1,
         .infer = inferAveragePool,
         .kernel = runAveragePool},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes10,
         .constraints = kConstraints1,
         .infer = inferAveragePool,
         .kernel = runAveragePool},
        {.since_version = 19,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes19,
         .constraints = kConstraints1,
         .infer = inferAveragePool19,
         .kernel = runAveragePool},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes19,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferAveragePool19,
         .kernel = runAveragePool},
    }};
static_assert(isWellFormed(kAveragePool));

}  // namespace onyx::ops::ai_onnx
