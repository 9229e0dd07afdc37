// Internal to the evaluator: ConvInteger's and QLinearConv's integer convolution through
// oneDNN's int8 convolution primitive, exactly as the spec computes it.
//
// The spec sums (x - x_zero_point) * (w - w_zero_point) in int32, the input padded with its
// zero point. oneDNN multiplies uint8 or int8 sources by int8 weights and sums in int32, but
// where it applies zero points itself it takes the sums through float, which rounds them past
// 2^24; so onyx asks it for the plain sums and takes the zero points out itself, which keeps
// every term an exact integer:
//   sum (x - zx)(w - zw) = sum x w - zx sum w - zw sum x + K zx zw.
// onyx pads the input with its zero point while it puts it channels-last, so the primitive
// pads nothing; uint8 weights become int8 by subtracting 128 (w - zw = (w - 128) - (zw -
// 128)); sum w is kept with the weights; sum x over each window, wanted when a weight zero
// point is not 0, is one more output channel per group whose weights are all 1. Summed with
// wrap-around, the result has the bits of the spec's int32 accumulator. The layout steps
// around the primitive (the input put channels-last, the sums put back channels-first with
// the zero points taken out) are integer_sums.h's, split over the node's threads.
//
// Exact only where oneDNN multiplies bytes without an int16 intermediate that can saturate:
// CPUs with VNNI or AMX. Elsewhere onyx's own exact kernel runs here, its constant weights
// packed once (packed_integer_weights.h); for what else it does not handle (1-D and 3-D
// convolutions, shapes oneDNN refuses, unfixed weights below VNNI) it declines and the node's
// kernel runs. The same on every thread count: oneDNN splits the work by output elements.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "onyx/core/array.h"
#include "onyx/core/cpu_tier.h"
#include "onyx/ops/kernel_context.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

class PackedIntegerWeights;

struct IntegerConvolutionCall {
  const ops::nn::ConvShape* shape = nullptr;
  const Array* x = nullptr;        // UINT8 or INT8, (N, C, H, W)
  const Array* x_zero = nullptr;   // one value of x's type, or null (0)
  const Array* weights = nullptr;  // UINT8 or INT8, (M, C / group, KH, KW)
  bool weights_fixed = false;      // the same elements on every run (an initializer)
  const Array* w_zero = nullptr;   // one value or one per output channel, or null (0)
  int threads = 1;
  /// The session's CPU tier: below VNNI oneDNN's byte products saturate, and onyx's own kernel
  /// runs instead.
  CpuTier tier = CpuTier::kBaseline;
  /// The node's context, whose threads the layout steps split over; null: this thread.
  const KernelContext* ctx = nullptr;
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

  using SumsConsumer = std::function<void(const ops::nn::IntegerSumsTile&)>;
  /// The same sums given to `consume` instead of returned, on the call's threads and
  /// concurrently, each once: by onyx's own kernel tile by tile while each tile is in cache,
  /// by oneDNN's primitive one (image, output channel) row at a time. False when the call is
  /// outside what it handles, having consumed nothing. For a step that turns the sums into
  /// its own result (fusions/dynamic_quantized_convolution.cc).
  Result<bool> runInto(const IntegerConvolutionCall& call, const SumsConsumer& consume);

  /// Whether the last call that ran took onyx's own kernel (else oneDNN's primitive).
  bool ranOwnKernel() const { return ran_own_; }

  struct Cache;

 private:
  // Whether onyx's own kernel takes the call's operands (and it has a context to run on).
  bool ownKernelTakes(const IntegerConvolutionCall& call) const;
  // The own kernel's tiles, into `into` (the INT32 result) when not null, each then consumed.
  void ownTiles(const IntegerConvolutionCall& call, int32_t* into, const SumsConsumer& consume);
  Result<std::optional<Array>> ownSums(const IntegerConvolutionCall& call);

  std::unique_ptr<Cache> cache_;
  std::unique_ptr<PackedIntegerWeights> own_weights_;  // for onyx's own kernel
  bool ran_own_ = false;
};

}  // namespace onyx::eval_internal
