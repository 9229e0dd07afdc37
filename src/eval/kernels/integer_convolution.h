// Internal to the evaluator: ConvInteger's and QLinearConv's integer convolution through
// oneDNN's int8 convolution primitive, exactly as the spec computes it.
//
// The spec sums (x - x_zero_point) * (w - w_zero_point) in int32, the input padded with its
// zero point. oneDNN takes uint8 or int8 sources with a run-time zero point (its padding is
// the zero point too), int8 weights without one, and sums in int32. So uint8 weights become
// int8 ones by subtracting 128 (w - w_zero = (w - 128) - (w_zero - 128)), and a weight zero
// point z that is then not 0 is taken out after: the sum is conv(x - x_zero, w') -
// z * S, where S, the sum of (x - x_zero) over the window, is one more output channel per
// group whose weights are all 1. Every term is an exact integer, summed with wrap-around, so
// the result has the bits the spec's int32 accumulator gives.
//
// Exact only where oneDNN multiplies bytes without an int16 intermediate that can saturate:
// CPUs with VNNI or AMX. Elsewhere, and for what else it does not handle (1-D and 3-D
// convolutions, shapes oneDNN refuses), it declines and onyx's own kernel runs. The same on
// every thread count: oneDNN splits the work by output elements.
#pragma once

#include <memory>
#include <optional>

#include "onyx/core/array.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

struct IntegerConvolutionCall {
  const ops::nn::ConvShape* shape = nullptr;
  const Array* x = nullptr;        // UINT8 or INT8, (N, C, H, W)
  const Array* x_zero = nullptr;   // one value of x's type, or null (0)
  const Array* weights = nullptr;  // UINT8 or INT8, (M, C / group, KH, KW)
  bool weights_fixed = false;      // the same elements on every run (an initializer)
  const Array* w_zero = nullptr;   // one value or one per output channel, or null (0)
  int threads = 1;
};

/// One node's oneDNN primitive and prepared weights, kept between runs.
class IntegerConvolution {
 public:
  IntegerConvolution();
  ~IntegerConvolution();
  IntegerConvolution(const IntegerConvolution&) = delete;
  IntegerConvolution& operator=(const IntegerConvolution&) = delete;

  /// The INT32 (N, M, OH, OW) result; nullopt when this call is outside what it handles,
  /// having done nothing (the caller's own kernel then runs).
  Result<std::optional<Array>> run(const IntegerConvolutionCall& call);

  /// Whether oneDNN sums bytes exactly on this CPU (VNNI or AMX).
  static bool exactOnThisMachine();

  struct Cache;

 private:
  std::unique_ptr<Cache> cache_;
};

}  // namespace onyx::eval_internal
