#include "eval/kernels/panel_linear_layer.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "ops/lib/float_casts.h"

#ifdef ONYX_PANEL_LINEAR
#include <immintrin.h>
#endif

namespace onyx::eval_internal::panel_linear {

namespace {

constexpr size_t kPanel = 16;        // columns a panel holds: two 8-float registers
constexpr size_t kTileRows = 6;      // rows a tile sums at once: 12 accumulators
constexpr size_t kInnerChunk = 256;  // inner indices a pass takes: 16 KiB of a panel

}  // namespace

std::optional<Panels> packPanels(const Array& b, bool transposed) {
  const bool halves = b.type() == ElementType::kFloat16;
  if ((b.type() != ElementType::kFloat && !halves) || b.rank() != 2) return std::nullopt;
  const int64_t inner = b.dim(transposed ? 1 : 0), columns = b.dim(transposed ? 0 : 1);
  // Element (k, j) of the (inner, columns) matrix.
  const size_t k_step = transposed ? 1 : static_cast<size_t>(columns);
  const size_t j_step = transposed ? static_cast<size_t>(inner) : 1;
  std::vector<uint16_t> gathered(halves && transposed ? kPanel : 0);
  const size_t panels = (static_cast<size_t>(columns) + kPanel - 1) / kPanel;
  Result<Array> made = Array::allocate(
      ElementType::kFloat, {static_cast<int64_t>(panels * static_cast<size_t>(inner) * kPanel)});
  if (!made) return std::nullopt;
  float* to = made->data<float>();
  for (size_t p = 0; p < panels; ++p) {
    const size_t first = p * kPanel;
    const size_t count = std::min(kPanel, static_cast<size_t>(columns) - first);
    for (size_t k = 0; k < static_cast<size_t>(inner); ++k) {
      float* row = to + (p * static_cast<size_t>(inner) + k) * kPanel;
      const size_t at = k * k_step + first * j_step;
      if (!transposed && halves) {
        ops::cast::halvesToFloats(b.data<uint16_t>() + at, count, row);
      } else if (!transposed) {
        std::copy_n(b.data<float>() + at, count, row);
      } else if (halves) {
        for (size_t j = 0; j < count; ++j) gathered[j] = b.data<uint16_t>()[at + j * j_step];
        ops::cast::halvesToFloats(gathered.data(), count, row);
      } else {
        for (size_t j = 0; j < count; ++j) row[j] = b.data<float>()[at + j * j_step];
      }
      std::fill(row + count, row + kPanel, 0.0f);
    }
  }
  return Panels{std::move(*made), inner, columns};
}

#ifdef ONYX_PANEL_LINEAR

#define ONYX_PANEL_TARGET __attribute__((target("avx2,fma")))

namespace {

// c (rows x 16, stride ldc) += a (rows x count, stride lda) * panel (count x 16), as one FMA
// chain per element in inner order.
template <size_t kRows>
ONYX_PANEL_TARGET inline void tile(const float* a, size_t lda, const float* panel, size_t count,
                                   float* c, size_t ldc) {
  // Unrolled whole, so that the accumulators live in registers.
  __m256 low[kRows], high[kRows];
#pragma GCC unroll 6
  for (size_t i = 0; i < kRows; ++i) {
    low[i] = _mm256_loadu_ps(c + i * ldc);
    high[i] = _mm256_loadu_ps(c + i * ldc + 8);
  }
  for (size_t k = 0; k < count; ++k) {
    const __m256 b_low = _mm256_load_ps(panel + k * kPanel);
    const __m256 b_high = _mm256_load_ps(panel + k * kPanel + 8);
#pragma GCC unroll 6
    for (size_t i = 0; i < kRows; ++i) {
      const __m256 x = _mm256_broadcast_ss(a + i * lda + k);
      low[i] = _mm256_fmadd_ps(x, b_low, low[i]);
      high[i] = _mm256_fmadd_ps(x, b_high, high[i]);
    }
  }
#pragma GCC unroll 6
  for (size_t i = 0; i < kRows; ++i) {
    _mm256_storeu_ps(c + i * ldc, low[i]);
    _mm256_storeu_ps(c + i * ldc + 8, high[i]);
  }
}

using Tile = void (*)(const float*, size_t, const float*, size_t, float*, size_t);
constexpr Tile kTiles[kTileRows + 1] = {nullptr, tile<1>, tile<2>, tile<3>,
                                        tile<4>, tile<5>, tile<6>};

}  // namespace

void multiplyAddBias(const float* a, size_t rows, const Panels& b, const float* bias, float* out) {
  const size_t inner = static_cast<size_t>(b.inner);
  const size_t columns = static_cast<size_t>(b.columns);
  const size_t panels = (columns + kPanel - 1) / kPanel;
  const float* packed = b.floats.data<float>();
  for (size_t r = 0; r < rows; ++r) std::copy_n(bias, columns, out + r * columns);
  // The last panel's columns past the end go through a scratch tile of full width.
  float edge[kTileRows * kPanel];
  for (size_t k0 = 0; k0 < inner; k0 += kInnerChunk) {
    const size_t count = std::min(kInnerChunk, inner - k0);
    for (size_t p = 0; p < panels; ++p) {
      const float* panel = packed + (p * inner + k0) * kPanel;
      const size_t first = p * kPanel;
      const size_t width = std::min(kPanel, columns - first);
      for (size_t r = 0; r < rows; r += kTileRows) {
        const size_t height = std::min(kTileRows, rows - r);
        const float* a_rows = a + r * inner + k0;
        float* c = out + r * columns + first;
        if (width == kPanel) {
          kTiles[height](a_rows, inner, panel, count, c, columns);
          continue;
        }
        for (size_t i = 0; i < height; ++i) {
          std::copy_n(c + i * columns, width, edge + i * kPanel);
          std::fill(edge + i * kPanel + width, edge + (i + 1) * kPanel, 0.0f);
        }
        kTiles[height](a_rows, inner, panel, count, edge, kPanel);
        for (size_t i = 0; i < height; ++i) std::copy_n(edge + i * kPanel, width, c + i * columns);
      }
    }
  }
}

#else

void multiplyAddBias(const float*, size_t, const Panels&, const float*, float*) {}

#endif

}  // namespace onyx::eval_internal::panel_linear
