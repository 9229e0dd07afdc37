// Internal to the evaluator: a float 2-D convolution with its residual Add and activations,
// through oneDNN's convolution primitive (fusions/convolution_chain.h says which nodes); a
// 1-D one as a 2-D one of height 1, channels-first.
//
// oneDNN's fast convolutions read and write channels-last tensors (NHWC); onyx's arrays are
// channels-first (NCHW). A fused convolution reads either and writes either, so that a chain
// of them converts only where a value enters or leaves the chain. A channels-last value is an
// Array of shape (N, H, W, C) that only fused convolutions ever see.
//
// Results are the same on any thread count: oneDNN splits a forward convolution's work by
// output elements, never one accumulation (tests/eval/thread_count_test.cc checks). A
// float16 call is computed in float and rounded to float16 once, at the end of the group (the
// residual Add and activations included), as onnxruntime computes float16 on CPUs.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ops/kernel_context.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

/// An elementwise function applied to the convolution's result, in oneDNN's post-operation.
struct ConvolutionActivation {
  enum class Kind { kRelu, kLeakyRelu, kClip, kHardSwish, kSigmoid, kSwish, kTanh, kLinear };
  Kind kind = Kind::kRelu;
  float alpha = 0;  // LeakyRelu's slope, Clip's lower bound, Linear's scale
  float beta = 0;   // Clip's upper bound, Linear's shift
  bool operator==(const ConvolutionActivation&) const = default;
};

struct FusedConvolutionCall {
  const ops::nn::ConvShape* shape = nullptr;
  const Array* x = nullptr;
  bool x_channels_last = false;
  const Array* weights = nullptr;
  bool weights_fixed = false;  // the same elements on every run (an initializer)
  const Array* bias = nullptr;
  const Array* residual = nullptr;
  bool residual_channels_last = false;
  /// The residual's storage when nothing else holds it: the result is written over it.
  std::optional<Array> residual_storage = std::nullopt;
  /// After the residual is added, in order.
  std::vector<ConvolutionActivation> activations = {};
  bool output_channels_last = false;
  int threads = 1;
  /// The node's context, whose threads float16 conversions split over; null: this thread.
  const KernelContext* ctx = nullptr;
  /// A float16 call's result left FLOAT, not rounded to FLOAT16 (a wide value,
  /// engine/frame.h); its x and residual may be FLOAT too, standing for FLOAT16.
  bool keep_wide = false;
};

/// One Conv node's oneDNN primitive and reordered weights, kept between runs.
class FusedConvolution {
 public:
  FusedConvolution();
  ~FusedConvolution();
  FusedConvolution(const FusedConvolution&) = delete;
  FusedConvolution& operator=(const FusedConvolution&) = delete;

  /// The result; nullopt when this call is outside what the fused path handles (element
  /// types, ranks, shapes, what oneDNN refuses) and nothing was touched: the caller then runs
  /// the nodes one by one. An error once `residual_storage` may have been written.
  Result<std::optional<Array>> run(FusedConvolutionCall& call);

  struct Cache;
  struct HalfWeights;

 private:
  /// A FLOAT16 call (FLOAT16 weights): its FLOAT16 tensors widened to FLOAT, the float path
  /// run, the result rounded to FLOAT16 once unless the call keeps it wide.
  Result<std::optional<Array>> runHalves(FusedConvolutionCall& call);

  std::unique_ptr<Cache> cache_;
  std::unique_ptr<HalfWeights> half_;
};

}  // namespace onyx::eval_internal
