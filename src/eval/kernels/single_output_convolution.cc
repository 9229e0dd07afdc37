#include "eval/kernels/single_output_convolution.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/kernels.h"

namespace onyx::eval_internal {

namespace {

// The sizes of the convolution, as size_t and ptrdiff_t where they index.
struct Geometry {
  size_t height, width, channels, out_height, out_width, kernel_height, kernel_width;
  ptrdiff_t stride_y, stride_x, dilation_y, dilation_x, pad_y, pad_x;

  // The channels of the input pixel that tap (ky, kx) of output pixel (oy, ox) reads, which
  // must be inside the image.
  const float* pixel(const float* image, size_t oy, size_t ky, size_t ox, size_t kx) const {
    const ptrdiff_t iy =
        static_cast<ptrdiff_t>(oy) * stride_y - pad_y + static_cast<ptrdiff_t>(ky) * dilation_y;
    const ptrdiff_t ix =
        static_cast<ptrdiff_t>(ox) * stride_x - pad_x + static_cast<ptrdiff_t>(kx) * dilation_x;
    return image + (static_cast<size_t>(iy) * width + static_cast<size_t>(ix)) * channels;
  }
};

constexpr size_t kLanes = 8;  // floats in an AVX2 register, and the portable kernel's lanes
constexpr size_t kBlock = 4;  // output pixels summed side by side, for independent chains

// The sums of `count` (1 or kBlock) neighbouring output pixels of one row, from ox on, over
// the taps [ky0, ky1) of each row and [kx0, kx1) of each column (those inside the image for
// every one of the pixels): into sums[0, count). Each pixel's sum runs over the taps in order
// and over a tap's channels in kLanes lanes, then the lanes in a fixed order, then the
// channels past the last whole lane group: the same order in both kernels (the AVX2 one
// fusing each product into its sum, so their bits may differ).
template <size_t kCount>
inline void portableSums(const Geometry& g, const float* image, const float* taps, size_t oy,
                         size_t ox, size_t ky0, size_t ky1, size_t kx0, size_t kx1, float* sums) {
  const size_t whole = g.channels / kLanes * kLanes;
  float lanes[kCount][kLanes] = {};
  float rest[kCount] = {};
  for (size_t ky = ky0; ky < ky1; ++ky) {
    for (size_t kx = kx0; kx < kx1; ++kx) {
      const float* tap = taps + (ky * g.kernel_width + kx) * g.channels;
      for (size_t p = 0; p < kCount; ++p) {
        const float* pixel = g.pixel(image, oy, ky, ox + p, kx);
        for (size_t c = 0; c < whole; c += kLanes) {
          for (size_t l = 0; l < kLanes; ++l) lanes[p][l] += pixel[c + l] * tap[c + l];
        }
        for (size_t c = whole; c < g.channels; ++c) rest[p] += pixel[c] * tap[c];
      }
    }
  }
  for (size_t p = 0; p < kCount; ++p) {
    const float* l = lanes[p];
    sums[p] = (((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))) + rest[p];
  }
}

#define ONYX_AVX2_TARGET __attribute__((target("avx2,fma")))

ONYX_AVX2_TARGET inline float laneSum(__m256 v) {
  // The same order as portableSums: (l0 + l4), (l2 + l6), (l1 + l5), (l3 + l7), then pairs.
  const __m128 halves = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 pairs = _mm_add_ps(halves, _mm_movehl_ps(halves, halves));  // (0+2), (1+3)
  return _mm_cvtss_f32(pairs) + _mm_cvtss_f32(_mm_shuffle_ps(pairs, pairs, 1));
}

template <size_t kCount>
ONYX_AVX2_TARGET void avx2Sums(const Geometry& g, const float* image, const float* taps, size_t oy,
                               size_t ox, size_t ky0, size_t ky1, size_t kx0, size_t kx1,
                               float* sums) {
  const size_t whole = g.channels / kLanes * kLanes;
  __m256 lanes[kCount];
  float rest[kCount] = {};
  for (size_t p = 0; p < kCount; ++p) lanes[p] = _mm256_setzero_ps();
  for (size_t ky = ky0; ky < ky1; ++ky) {
    for (size_t kx = kx0; kx < kx1; ++kx) {
      const float* tap = taps + (ky * g.kernel_width + kx) * g.channels;
      const float* pixels[kCount];
      for (size_t p = 0; p < kCount; ++p) pixels[p] = g.pixel(image, oy, ky, ox + p, kx);
      for (size_t c = 0; c < whole; c += kLanes) {
        const __m256 weights = _mm256_loadu_ps(tap + c);
        for (size_t p = 0; p < kCount; ++p) {
          lanes[p] = _mm256_fmadd_ps(_mm256_loadu_ps(pixels[p] + c), weights, lanes[p]);
        }
      }
      for (size_t c = whole; c < g.channels; ++c) {
        for (size_t p = 0; p < kCount; ++p) rest[p] = std::fma(pixels[p][c], tap[c], rest[p]);
      }
    }
  }
  for (size_t p = 0; p < kCount; ++p) sums[p] = laneSum(lanes[p]) + rest[p];
}

// The taps [first, last) of an axis that fall inside the image for output position `out`: a
// range, the tap's position growing with its index.
void insideTaps(ptrdiff_t out, ptrdiff_t stride, ptrdiff_t pad, ptrdiff_t dilation, size_t kernel,
                size_t size, size_t& first, size_t& last) {
  first = kernel;
  last = 0;
  for (size_t k = 0; k < kernel; ++k) {
    const ptrdiff_t at = out * stride - pad + static_cast<ptrdiff_t>(k) * dilation;
    if (at < 0 || at >= static_cast<ptrdiff_t>(size)) continue;
    first = std::min(first, k);
    last = k + 1;
  }
  if (first > last) first = last;
}

template <bool kAvx2>
void convolveRow(const Geometry& g, const float* image, const float* taps, float bias, size_t oy,
                 float* out) {
  size_t ky0 = 0, ky1 = 0;
  insideTaps(static_cast<ptrdiff_t>(oy), g.stride_y, g.pad_y, g.dilation_y, g.kernel_height,
             g.height, ky0, ky1);
  auto sums = [&]<size_t kCount>(size_t ox, size_t kx0, size_t kx1, float* into) {
    if constexpr (kAvx2) {
      avx2Sums<kCount>(g, image, taps, oy, ox, ky0, ky1, kx0, kx1, into);
    } else {
      portableSums<kCount>(g, image, taps, oy, ox, ky0, ky1, kx0, kx1, into);
    }
  };
  size_t ox = 0;
  while (ox < g.out_width) {
    size_t kx0 = 0, kx1 = 0;
    insideTaps(static_cast<ptrdiff_t>(ox), g.stride_x, g.pad_x, g.dilation_x, g.kernel_width,
               g.width, kx0, kx1);
    // A block of pixels whose taps are all inside the row, or one pixel.
    bool whole_block = kx0 == 0 && kx1 == g.kernel_width && ox + kBlock <= g.out_width;
    if (whole_block) {
      size_t last_first = 0, last_end = 0;
      insideTaps(static_cast<ptrdiff_t>(ox + kBlock - 1), g.stride_x, g.pad_x, g.dilation_x,
                 g.kernel_width, g.width, last_first, last_end);
      whole_block = last_first == 0 && last_end == g.kernel_width;
    }
    if (whole_block) {
      float block[kBlock];
      sums.template operator()<kBlock>(ox, 0, g.kernel_width, block);
      for (size_t p = 0; p < kBlock; ++p) out[ox + p] = block[p] + bias;
      ox += kBlock;
      continue;
    }
    float one = 0;
    sums.template operator()<1>(ox, kx0, kx1, &one);
    out[ox] = one + bias;
    ++ox;
  }
}

}  // namespace

bool singleOutputConvolutionTakes(const ops::nn::ConvShape& shape) {
  return shape.window.rank() == 2 && shape.group == 1 && shape.outputs == 1 && shape.channels > 0;
}

void singleOutputConvolution(const KernelContext& ctx, const ops::nn::ConvShape& shape,
                             const float* x, const float* w, const float* bias, float* y) {
  const ops::nn::Window& win = shape.window;
  const Geometry g{.height = static_cast<size_t>(win.image[0]),
                   .width = static_cast<size_t>(win.image[1]),
                   .channels = static_cast<size_t>(shape.channels),
                   .out_height = static_cast<size_t>(win.columns[0]),
                   .out_width = static_cast<size_t>(win.columns[1]),
                   .kernel_height = static_cast<size_t>(win.kernel[0]),
                   .kernel_width = static_cast<size_t>(win.kernel[1]),
                   .stride_y = win.strides[0],
                   .stride_x = win.strides[1],
                   .dilation_y = win.dilations[0],
                   .dilation_x = win.dilations[1],
                   .pad_y = win.pad_begin[0],
                   .pad_x = win.pad_begin[1]};
  // The weights tap-major, (KH, KW, C): a tap's channels contiguous, as the input's are.
  const size_t tap_count = g.kernel_height * g.kernel_width;
  std::vector<float> taps(tap_count * g.channels);
  for (size_t c = 0; c < g.channels; ++c) {
    for (size_t t = 0; t < tap_count; ++t) taps[t * g.channels + c] = w[c * tap_count + t];
  }
  const float added = bias != nullptr ? bias[0] : 0.0f;
  const bool avx2 = ctx.cpuTier() >= CpuTier::kAvx2;
  const size_t image_size = g.height * g.width * g.channels;
  const size_t rows = static_cast<size_t>(shape.batch) * g.out_height;
  ops::parallelFor(ctx, rows, 1, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      const size_t n = row / g.out_height, oy = row % g.out_height;
      const float* image = x + n * image_size;
      float* out = y + row * g.out_width;
      if (avx2) {
        convolveRow<true>(g, image, taps.data(), added, oy, out);
      } else {
        convolveRow<false>(g, image, taps.data(), added, oy, out);
      }
    }
  });
}

}  // namespace onyx::eval_internal
