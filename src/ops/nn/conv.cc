// Conv (ai.onnx), versions 1, 11, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/kernels.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferConv(InferenceContext& ctx) { inferConvolution(ctx, 0, 1); }

// im2col + gemm (conv_kernels.h): float and double natively, float16 and bfloat16 in float.
Status runConv(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* w = ctx.inputArray(1);
  const Array* b = ctx.inputArray(2);
  if (x == nullptr || w == nullptr) return ctx.fail("needs the tensors X and W");
  if (x->type() != w->type() || (b != nullptr && b->type() != x->type())) {
    return ctx.fail("X, W and B have different element types");
  }
  Result<nn::ConvShape> shape = nn::convShape(ctx, x->shape(), w->shape());
  if (!shape) return shape.status();
  if (b != nullptr && (b->rank() != 1 || b->dim(0) != shape->outputs)) {
    return ctx.fail("B must have shape [" + std::to_string(shape->outputs) + "]");
  }
  std::vector<int64_t> dims = {shape->batch, shape->outputs};
  dims.insert(dims.end(), shape->window.columns.begin(), shape->window.columns.end());
  Array xs = widenToFloat(*x);
  Array ws = widenToFloat(*w);
  Array bs = b != nullptr ? widenToFloat(*b) : Array();
  Result<Array> made = Array::allocate(xs.type(), dims);
  if (!made) return made.status();
  Array y = std::move(*made);
  bool ok = dispatchFloat(xs.type(), [&]<class T>() {
    nn::convolve<T>(ctx, *shape, xs.data<T>(), ws.data<T>(), b != nullptr ? bs.data<T>() : nullptr,
                    y.data<T>());
  });
  if (!ok) return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(y, x->type()));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}, {"W", "T"}, optional("B", "T")};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {attr("auto_pad", "NOTSET"), attr("dilations", kInts),
                                     attr("group", 1),           attr("kernel_shape", kInts),
                                     attr("pads", kInts),        attr("strides", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kConv;
constexpr Operator kConv{
    .domain = kOnnxDomain,
    .name = "Conv",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferConv,
         .kernel = runConv},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferConv,
         .kernel = runConv,
         .step = {.reviewed = true, .change = "strides and dilations defaults of 1 documented"}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferConv,
         .kernel = runConv,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kConv));

}  // namespace onyx::ops::ai_onnx
