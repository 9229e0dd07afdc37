// Internal to the evaluator: a float 2-D convolution into one output channel on a
// channels-last input, as a segmentation net's side outputs are (U²-Net: 16-64 channels into
// 1, 3x3, at full resolution). oneDNN's kernels block the output channels in eights or
// sixteens, so for one channel they fill one lane in eight or sixteen: measured here on the
// U²-Net's 32-into-1 3x3 at 1024x1024, 2.7 G multiply-adds per second with AVX2 and 3.5 with
// AVX-512, where a dot product over each output pixel's taps, each tap's channels contiguous,
// runs near the speed of reading the input.
#pragma once

#include "onyx/ops/kernel_context.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

/// Whether singleOutputConvolution takes `shape`: 2-D, one group, one output channel.
bool singleOutputConvolutionTakes(const ops::nn::ConvShape& shape);

/// y[n, oy, ox] = bias + the sum over the window's taps and the channels of x[n, iy, ix, c] *
/// w[0, c, ky, kx], for x channels-last (N, H, W, C) and y (N, OH, OW) (the same bytes as (N,
/// 1, OH, OW) or (N, OH, OW, 1)); bias null for none. Parallel over output rows on `ctx`'s
/// threads, each sum in a fixed order whatever the threads: the same bits on any thread count.
/// With AVX2 (ctx's tier) the sums use fused multiply-adds, else separate ones.
void singleOutputConvolution(const KernelContext& ctx, const ops::nn::ConvShape& shape,
                             const float* x, const float* w, const float* bias, float* y);

}  // namespace onyx::eval_internal
