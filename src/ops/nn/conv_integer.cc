// ConvInteger (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/conv_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferConvInteger(InferenceContext& ctx) { inferConvolution(ctx, 0, 1); }

// (x - x_zero_point) convolved with (w - w_zero_point) in int32; the padding reads as
// x_zero_point (adds nothing).
Status runConvInteger(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* w = ctx.inputArray(1);
  if (x == nullptr || w == nullptr) return ctx.fail("needs the tensors x and w");
  Result<Array> y =
      nn::integerConvolution(ctx, *x, ctx.inputArray(2), *w, ctx.inputArray(3), nullptr);
  if (!y) return y.status();
  ctx.setOutput(0, std::move(*y));
  return Status::ok();
}

}  // namespace

extern const Operator kConvInteger;
constexpr Operator kConvInteger{
    .domain = kOnnxDomain,
    .name = "ConvInteger",
    .versions = {
        {.since_version = 10,
         .inputs = {{"x", "T1"},
                    {"w", "T2"},
                    optional("x_zero_point", "T1"),
                    optional("w_zero_point", "T2")},
         .outputs = {{"y", "T3"}},
         .attributes = {attr("auto_pad", "NOTSET"), attr("dilations", kInts), attr("group", 1),
                        attr("kernel_shape", kInts), attr("pads", kInts), attr("strides", kInts)},
         .constraints = {{"T1", tensor("int8 uint8")},
                         {"T2", tensor("int8 uint8")},
                         {"T3", tensor("int32")}},
         .infer = inferConvInteger,
         .kernel = runConvInteger},
    }};
static_assert(isWellFormed(kConvInteger));

}  // namespace onyx::ops::ai_onnx
