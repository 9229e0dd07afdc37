// Internal to the evaluator: a quantized convolution, uint8 or int8 in and out, through
// oneDNN's int8 convolution primitive with the requantization in its epilogue: what
// QLinearConv computes, and what a DequantizeLinear -> Conv [-> Relu] -> QuantizeLinear group
// means (fusions/qdq_convolution.cc).
//
// The products are summed exactly in int32 (oneDNN's with VNNI or AMX, elsewhere onyx's own
// exact kernel with the same arithmetic after it, requantize.h), the bias in
// the accumulator's units added, and the sum scaled by x_scale * w_scale[m] / y_scale in
// float, rounded to nearest even, the output zero point added, saturated: onnxruntime's
// QLinearConv arithmetic. oneDNN takes the input's zero point out through float, so a sum
// past 2^24 may be off by a few units of the accumulator, far below one quantization step of
// the output. Against the literal float path (DequantizeLinear, a float Conv, QuantizeLinear)
// a result can differ by one quantization step where the float sum lands near a rounding tie.
//
// The weights are int8 with zero points of 0 (what quantizers write: symmetric per output
// channel); others decline. The input and the output are channels-first (N, C, H, W) or
// channels-last (N, H, W, C), as the plan keeps them. The same on every thread count.
#pragma once

#include <memory>
#include <optional>
#include <span>

#include "onyx/core/array.h"
#include "onyx/core/cpu_tier.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

class PackedIntegerWeights;

struct QuantizedConvolutionCall {
  const ops::nn::ConvShape* shape = nullptr;
  const Array* x = nullptr;  // UINT8 or INT8
  bool x_channels_last = false;
  float x_scale = 1;
  int32_t x_zero = 0;
  const Array* weights = nullptr;   // INT8 (M, C / group, KH, KW), zero points 0
  bool weights_fixed = false;       // the same elements on every run (a constant)
  std::span<const float> w_scales;  // one, or one per output channel
  /// The bias in the accumulator's units (x_scale * w_scale[m]): M INT32 values, or null.
  const Array* bias = nullptr;
  float y_scale = 1;
  int32_t y_zero = 0;
  ElementType y_type = ElementType::kUint8;  // UINT8 or INT8
  bool relu = false;  // the result clamped below at y_zero (a Relu before the quantization)
  bool output_channels_last = false;
  int threads = 1;
  /// The session's CPU tier: below VNNI oneDNN's byte products saturate, and the products
  /// run through onyx's own exact kernel instead (ops::nn::integerConvolutionTiles).
  CpuTier tier = CpuTier::kBaseline;
  /// The Conv node's context (its attributes, its threads), for that kernel; null: decline
  /// below VNNI.
  const KernelContext* ctx = nullptr;
};

/// One node's (or group's) primitive and reordered weights, kept between runs.
class QuantizedConvolution {
 public:
  QuantizedConvolution();
  ~QuantizedConvolution();
  QuantizedConvolution(const QuantizedConvolution&) = delete;
  QuantizedConvolution& operator=(const QuantizedConvolution&) = delete;

  /// The quantized result; nullopt when the call is outside what it handles, having done
  /// nothing (the caller's own path then runs).
  Result<std::optional<Array>> run(const QuantizedConvolutionCall& call);

  struct Cache;

 private:
  std::unique_ptr<Cache> cache_;
  std::unique_ptr<PackedIntegerWeights> own_weights_;  // for onyx's own kernel, below VNNI
};

}  // namespace onyx::eval_internal
