// Internal: what the kernels of the convolutions and poolings share (Conv, ConvInteger,
// QLinearConv, DeformConv, ConvTranspose, Col2Im, CausalConvWithState, the poolings).
//
// - `gemm`: the matrix multiply of the non-float convolutions (row-major, with leading
//   dimensions as BLAS's gemm has them); float ones go through oneDNN's sgemm
//   (ops/matrix_multiply.h), integer ones through bytePairGemm (ops/nn/byte_pair_gemm.h), or
//   byteQuadGemm (ops/nn/byte_quad_gemm.h) with VNNI.
// - `Window`: the sliding-window geometry of a node, read from its attributes against the
//   actual input shape (the same arithmetic as the shape rules of window_shape.h).
// - `TapTable`, `im2col`, `col2imAdd`: gathering an image's windows into the columns of a
//   matrix, and adding columns back into an image, over any number of spatial axes.
// - `convolve`: a grouped N-d convolution as im2col + gemm, parallel over column tiles.
// - `integerConvolution`: ConvInteger's and QLinearConv's convolution of bytes less their zero
//   points, its columns gathered by `im2colByRuns`; its weights packed apart and its sums
//   given tile by tile (`integerConvolutionTiles`) for the evaluator, which keeps the one and
//   requantizes the other while it is in cache.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/quote.h"
#include "onyx/core/status.h"
#include "onyx/ops/kernel_context.h"
#include "ops/kernels.h"
#include "ops/matrix_multiply.h"
#include "ops/nn/byte_pair_gemm.h"
#include "ops/nn/byte_quad_gemm.h"
#include "ops/nn/window_shape.h"

namespace onyx::ops::nn {

// ---- the matrix multiply ----------------------------------------------------------------

/// C[m, n] = A[m, k] * B[k, n], all row-major; lda, ldb, ldc are the distances between rows
/// (in elements). C is overwritten (zero when k is 0). Rows of A and C may be split between
/// calls (each C element is the same sum in the same order however the rows are split).
template <class T>
inline void gemm(size_t m, size_t n, size_t k, const T* a, size_t lda, const T* b, size_t ldb, T* c,
                 size_t ldc) {
  size_t i = 0;
  for (; i + 4 <= m; i += 4) {
    T* __restrict c0 = c + i * ldc;
    T* __restrict c1 = c0 + ldc;
    T* __restrict c2 = c1 + ldc;
    T* __restrict c3 = c2 + ldc;
    std::fill(c0, c0 + n, T(0));
    std::fill(c1, c1 + n, T(0));
    std::fill(c2, c2 + n, T(0));
    std::fill(c3, c3 + n, T(0));
    const T* a0 = a + i * lda;
    const T* a1 = a0 + lda;
    const T* a2 = a1 + lda;
    const T* a3 = a2 + lda;
    for (size_t p = 0; p < k; ++p) {
      const T* __restrict row = b + p * ldb;
      T s0 = a0[p], s1 = a1[p], s2 = a2[p], s3 = a3[p];
      for (size_t j = 0; j < n; ++j) {
        T v = row[j];
        c0[j] += s0 * v;
        c1[j] += s1 * v;
        c2[j] += s2 * v;
        c3[j] += s3 * v;
      }
    }
  }
  for (; i < m; ++i) {
    T* __restrict c0 = c + i * ldc;
    std::fill(c0, c0 + n, T(0));
    const T* a0 = a + i * lda;
    for (size_t p = 0; p < k; ++p) {
      const T* __restrict row = b + p * ldb;
      T s0 = a0[p];
      for (size_t j = 0; j < n; ++j) c0[j] += s0 * row[j];
    }
  }
}

// ---- attributes -----------------------------------------------------------------------------

/// Window attribute values are kept within int32 so that the window arithmetic cannot overflow.
inline constexpr int64_t kMaxWindowValue = std::numeric_limits<int32_t>::max();

/// A per-spatial-axis ints attribute: its values when present and not empty, checked to number
/// `count` and to lie in [minimum, kMaxWindowValue]; `count` copies of `fallback` when absent.
inline Result<std::vector<int64_t>> axisInts(const KernelContext& ctx, std::string_view name,
                                             size_t count, int64_t fallback, int64_t minimum) {
  std::optional<std::vector<int64_t>> values = ctx.intsAttribute(name);
  if (!values || values->empty()) return std::vector<int64_t>(count, fallback);
  if (values->size() != count) {
    return ctx.fail(std::string(name) + " has " + std::to_string(values->size()) +
                    " values, expected " + std::to_string(count));
  }
  for (int64_t value : *values) {
    if (value < minimum || value > kMaxWindowValue) {
      return ctx.fail(std::string(name) + " has the value " + std::to_string(value) +
                      "; values must lie in [" + std::to_string(minimum) + ", " +
                      std::to_string(kMaxWindowValue) + "]");
    }
  }
  return *values;
}

/// The node's auto_pad.
inline Result<AutoPad> autoPadAttribute(const KernelContext& ctx) {
  std::string_view text = ctx.stringAttribute("auto_pad").value_or("NOTSET");
  if (text == "NOTSET" || text.empty()) return AutoPad::kNotSet;
  if (text == "SAME_UPPER") return AutoPad::kSameUpper;
  if (text == "SAME_LOWER") return AutoPad::kSameLower;
  if (text == "VALID") return AutoPad::kValid;
  return ctx.fail("auto_pad " + quoted(text) +
                  " is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
}

/// floor(a / b) for b > 0.
inline int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

inline size_t volumeOf(std::span<const int64_t> dims) {
  size_t product = 1;
  for (int64_t d : dims) product *= static_cast<size_t>(d);
  return product;
}

// ---- the window geometry ------------------------------------------------------------------

/// A kernel sliding over an image: for window position o and tap t along axis a, the image
/// index is o * strides[a] - pad_begin[a] + t * dilations[a]. `image` and `columns` (the window
/// positions) have one size per spatial axis. For Conv and the poolings the image is the
/// input and the columns the output; for ConvTranspose and Col2Im the other way round.
struct Window {
  std::vector<int64_t> image;
  std::vector<int64_t> kernel;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pad_begin;
  std::vector<int64_t> pad_end;
  std::vector<int64_t> columns;

  size_t rank() const { return image.size(); }
  size_t imageVolume() const { return volumeOf(image); }
  size_t kernelVolume() const { return volumeOf(kernel); }
  size_t columnVolume() const { return volumeOf(columns); }
  int64_t extent(size_t a) const { return (kernel[a] - 1) * dilations[a] + 1; }
};

/// The window of a Conv-like or pooling node over `image` (the input's spatial sizes), with
/// `kernel` (each at least 1): strides, dilations (when `use_dilations`), pads, auto_pad and
/// (when `use_ceil_mode`) ceil_mode from the node, and the output sizes they give.
inline Result<Window> slidingWindow(const KernelContext& ctx, std::span<const int64_t> image,
                                    std::vector<int64_t> kernel, bool use_dilations,
                                    bool use_ceil_mode) {
  size_t rank = image.size();
  Window w;
  w.image.assign(image.begin(), image.end());
  w.kernel = std::move(kernel);
  for (int64_t k : w.kernel) {
    if (k < 1 || k > kMaxWindowValue) {
      return ctx.fail("the kernel has the size " + std::to_string(k) + " along an axis");
    }
  }
  Result<std::vector<int64_t>> strides = axisInts(ctx, "strides", rank, 1, 1);
  if (!strides) return strides.status();
  w.strides = std::move(*strides);
  if (use_dilations) {
    Result<std::vector<int64_t>> dilations = axisInts(ctx, "dilations", rank, 1, 1);
    if (!dilations) return dilations.status();
    w.dilations = std::move(*dilations);
  } else {
    w.dilations.assign(rank, 1);
  }
  std::optional<std::vector<int64_t>> given_pads = ctx.intsAttribute("pads");
  bool has_pads = given_pads && !given_pads->empty();
  Result<std::vector<int64_t>> pads = axisInts(ctx, "pads", 2 * rank, 0, 0);
  if (!pads) return pads.status();
  Result<AutoPad> auto_pad = autoPadAttribute(ctx);
  if (!auto_pad) return auto_pad.status();
  bool ceil_mode = use_ceil_mode && ctx.intAttribute("ceil_mode").value_or(0) != 0;
  bool same = !has_pads && (*auto_pad == AutoPad::kSameUpper || *auto_pad == AutoPad::kSameLower);
  w.pad_begin.assign(pads->begin(), pads->begin() + static_cast<std::ptrdiff_t>(rank));
  w.pad_end.assign(pads->begin() + static_cast<std::ptrdiff_t>(rank), pads->end());
  if (*auto_pad == AutoPad::kValid) {
    std::fill(w.pad_begin.begin(), w.pad_begin.end(), 0);
    std::fill(w.pad_end.begin(), w.pad_end.end(), 0);
  }
  w.columns.resize(rank);
  for (size_t a = 0; a < rank; ++a) {
    int64_t in = w.image[a];
    int64_t stride = w.strides[a];
    int64_t extent = w.extent(a);
    if (same) {
      // Pads so that the output is ceil(input / stride).
      int64_t out = (in + stride - 1) / stride;
      int64_t total = std::max<int64_t>(0, (out - 1) * stride + extent - in);
      int64_t small = total / 2;
      w.pad_begin[a] = *auto_pad == AutoPad::kSameUpper ? small : total - small;
      w.pad_end[a] = total - w.pad_begin[a];
    }
    int64_t numerator = in + w.pad_begin[a] + w.pad_end[a] - extent;
    if (ceil_mode) numerator += stride - 1;
    int64_t size = floorDiv(numerator, stride) + 1;
    // A last window that would start inside the end padding is dropped.
    if (ceil_mode && size > 0 && (size - 1) * stride >= in + w.pad_begin[a]) --size;
    if (size < 0) {
      return ctx.fail("spatial axis " + std::to_string(a) + " gets the negative size " +
                      std::to_string(size) + ": the window is larger than the padded input");
    }
    w.columns[a] = size;
  }
  return w;
}

// ---- im2col / col2im ------------------------------------------------------------------------

/// For each spatial axis a, tap t and window position o: the image index read, or -1 when it
/// falls outside the image (`index[a][t * columns[a] + o]`); and the image's row-major strides.
struct TapTable {
  std::vector<std::vector<int64_t>> index;
  std::vector<int64_t> image_strides;
};

inline TapTable tapTable(const Window& w) {
  size_t rank = w.rank();
  TapTable table;
  table.index.resize(rank);
  table.image_strides.assign(rank, 1);
  for (size_t a = rank; a-- > 1;) table.image_strides[a - 1] = table.image_strides[a] * w.image[a];
  for (size_t a = 0; a < rank; ++a) {
    std::vector<int64_t>& axis = table.index[a];
    axis.resize(static_cast<size_t>(w.kernel[a] * w.columns[a]));
    for (int64_t t = 0; t < w.kernel[a]; ++t) {
      for (int64_t o = 0; o < w.columns[a]; ++o) {
        int64_t i = o * w.strides[a] - w.pad_begin[a] + t * w.dilations[a];
        axis[static_cast<size_t>(t * w.columns[a] + o)] = (i >= 0 && i < w.image[a]) ? i : -1;
      }
    }
  }
  return table;
}

/// Visits the column positions [p0, p1) for the tap of coordinates `taps` in runs along the
/// last spatial axis: f(offset from p0, base image offset or -1 when the run's outer axes fall
/// outside the image, the last axis's index table for this tap, first position, run length).
template <class F>
inline void forEachRun(const Window& w, const TapTable& table, const int64_t* taps, size_t p0,
                       size_t p1, F&& f) {
  size_t last = w.rank() - 1;
  size_t width = static_cast<size_t>(w.columns[last]);
  if (width == 0) return;
  const int64_t* last_index = table.index[last].data() + taps[last] * w.columns[last];
  size_t p = p0;
  while (p < p1) {
    size_t row = p / width;
    size_t j0 = p % width;
    size_t run = std::min(width - j0, p1 - p);
    int64_t base = 0;
    for (size_t a = last; a-- > 0;) {
      size_t size = static_cast<size_t>(w.columns[a]);
      size_t o = row % size;
      row /= size;
      int64_t i = table.index[a][static_cast<size_t>(taps[a]) * size + o];
      if (i < 0) {
        base = -1;
        break;
      }
      base += i * table.image_strides[a];
    }
    f(p - p0, base, last_index, j0, run);
    p += run;
  }
}

/// The tap coordinates of flat tap `t` (row-major over the kernel).
inline void tapCoordinates(const Window& w, size_t t, int64_t* taps) {
  for (size_t a = w.rank(); a-- > 0;) {
    taps[a] = static_cast<int64_t>(t % static_cast<size_t>(w.kernel[a]));
    t /= static_cast<size_t>(w.kernel[a]);
  }
}

/// col[(c * kernelVolume + t), p - p0] = image[c, position of tap t at window position p], for
/// channels [0, channels) of `image` (channels x imageVolume) and positions [p0, p1); `outside`
/// where the tap falls outside the image.
template <class T>
inline void im2col(const Window& w, const TapTable& table, const T* image, size_t channels,
                   size_t p0, size_t p1, T* col, T outside = T(0)) {
  size_t taps_count = w.kernelVolume();
  size_t image_volume = w.imageVolume();
  size_t width = p1 - p0;
  std::vector<int64_t> taps(w.rank());
  for (size_t t = 0; t < taps_count; ++t) {
    tapCoordinates(w, t, taps.data());
    for (size_t c = 0; c < channels; ++c) {
      const T* src = image + c * image_volume;
      T* dst = col + (c * taps_count + t) * width;
      forEachRun(w, table, taps.data(), p0, p1,
                 [&](size_t offset, int64_t base, const int64_t* index, size_t j0, size_t run) {
                   T* out = dst + offset;
                   if (base < 0) {
                     std::fill(out, out + run, outside);
                     return;
                   }
                   const T* from = src + base;
                   for (size_t j = 0; j < run; ++j) {
                     int64_t i = index[j0 + j];
                     out[j] = i < 0 ? outside : from[i];
                   }
                 });
    }
  }
}

/// Calls `f.template operator()<kStride>()` with kStride = `stride` when that is 1 or 2 (the
/// strides of nearly every pooling and upsampling), else with 0, when the loop reads `stride`
/// itself: with a constant stride the compiler vectorizes a strided loop by shuffles instead
/// of one element at a time.
template <class F>
inline void withStride(size_t stride, F&& f) {
  if (stride == 1) {
    f.template operator()<1>();
  } else if (stride == 2) {
    f.template operator()<2>();
  } else {
    f.template operator()<0>();
  }
}

/// The moves of col2im: calls write(to, from, count, step, channel) for each `count` elements
/// of a row of `col` (c * kernelVolume + t, positions from p0) at `from` that land `step`
/// apart at `to` in channel `channel` of the image (channels x imageVolume). The taps along the
/// last axis come together, run by run, so that their writes share the cache lines of one
/// output row; each lands inside for one range of window positions, a loop with no test and
/// no table. Each image element receives its taps in tap order.
template <class T, class Write>
inline void forEachCol2imRun(const Window& w, const TapTable& table, const T* col, size_t channels,
                             size_t p0, size_t p1, T* image, Write&& write) {
  size_t taps_count = w.kernelVolume();
  size_t image_volume = w.imageVolume();
  size_t width = p1 - p0;
  size_t last = w.rank() - 1;
  size_t columns = static_cast<size_t>(w.columns[last]);
  size_t stride = static_cast<size_t>(w.strides[last]);
  size_t last_taps = static_cast<size_t>(w.kernel[last]);
  // Per tap along the last axis: the window positions it lands inside.
  std::vector<size_t> inside_begin(last_taps);
  std::vector<size_t> inside_end(last_taps);
  for (size_t k = 0; k < last_taps; ++k) {
    const int64_t* index = table.index[last].data() + k * columns;
    size_t begin = 0;
    while (begin < columns && index[begin] < 0) ++begin;
    size_t end = begin;
    while (end < columns && index[end] >= 0) ++end;
    inside_begin[k] = begin;
    inside_end[k] = end;
  }
  std::vector<int64_t> taps(w.rank());
  for (size_t c = 0; c < channels; ++c) {
    T* dst = image + c * image_volume;
    for (size_t t = 0; t < taps_count; t += last_taps) {
      tapCoordinates(w, t, taps.data());
      forEachRun(w, table, taps.data(), p0, p1,
                 [&](size_t offset, int64_t base, const int64_t*, size_t j0, size_t run) {
                   if (base < 0) return;
                   for (size_t k = 0; k < last_taps; ++k) {
                     size_t first = std::max(j0, inside_begin[k]);
                     size_t stop = std::min(j0 + run, inside_end[k]);
                     if (first >= stop) continue;
                     const int64_t* index = table.index[last].data() + k * columns;
                     write(dst + base + index[first],
                           col + (c * taps_count + t + k) * width + offset + (first - j0),
                           stop - first, stride, c);
                   }
                 });
    }
  }
}

/// The reverse of im2col: adds col[(c * kernelVolume + t), p - p0] into image[c, position of
/// tap t at window position p] where that falls inside the image.
template <class T>
inline void col2imAdd(const Window& w, const TapTable& table, const T* col, size_t channels,
                      size_t p0, size_t p1, T* image) {
  forEachCol2imRun(
      w, table, col, channels, p0, p1, image,
      [](T* __restrict to, const T* __restrict from, size_t count, size_t step, size_t) {
        withStride(step, [&]<size_t kStride>() {
          const size_t s = kStride != 0 ? kStride : step;
          for (size_t j = 0; j < count; ++j) to[j * s] += from[j];
        });
      });
}

/// A parallelFor grain for tasks of about `work` multiply-adds each: enough tasks per thread
/// that starting a thread is worth it (about 64K multiply-adds).
inline size_t grainFor(size_t work) {
  return std::max<size_t>(1, (size_t{1} << 16) / std::max<size_t>(work, 1));
}

/// Column tile width for a column matrix of `rows` rows: about 128K elements, at least 16.
inline size_t columnTile(size_t rows, size_t columns) {
  size_t tile = std::max<size_t>(16, (size_t{1} << 17) / std::max<size_t>(rows, 1));
  return std::max<size_t>(1, std::min(tile, columns));
}

// ---- convolution --------------------------------------------------------------------------

/// A grouped convolution's sizes: x (batch, channels, image...), w (outputs, channels / group,
/// kernel...), y (batch, outputs, columns...).
struct ConvShape {
  int64_t batch = 0;
  int64_t channels = 0;
  int64_t outputs = 0;
  int64_t group = 1;
  Window window;
};

/// Checks x and w (shapes of a Conv's X and W) against the node's group and kernel_shape and
/// reads its window (strides, dilations, pads, auto_pad).
inline Result<ConvShape> convShape(const KernelContext& ctx, const std::vector<int64_t>& x,
                                   const std::vector<int64_t>& w) {
  if (x.size() < 3) {
    return ctx.fail("the input has rank " + std::to_string(x.size()) +
                    "; a convolution needs (N, C, D1, ...)");
  }
  if (w.size() != x.size()) {
    return ctx.fail("the weight has rank " + std::to_string(w.size()) + ", the input rank " +
                    std::to_string(x.size()));
  }
  ConvShape s;
  s.batch = x[0];
  s.channels = x[1];
  s.outputs = w[0];
  s.group = ctx.intAttribute("group").value_or(1);
  if (s.group <= 0)
    return ctx.fail("group is " + std::to_string(s.group) + "; it must be positive");
  if (s.channels % s.group != 0 || s.channels / s.group != w[1]) {
    return ctx.fail("the input has " + std::to_string(s.channels) +
                    " channels; the weight expects " + std::to_string(w[1]) + " per group times " +
                    std::to_string(s.group) + " groups");
  }
  if (s.outputs % s.group != 0) {
    return ctx.fail("the weight's " + std::to_string(s.outputs) +
                    " output channels do not divide into " + std::to_string(s.group) + " groups");
  }
  std::vector<int64_t> kernel(w.begin() + 2, w.end());
  std::optional<std::vector<int64_t>> given = ctx.intsAttribute("kernel_shape");
  if (given && !given->empty() && *given != kernel) {
    return ctx.fail("kernel_shape does not match the weight's spatial dimensions");
  }
  for (int64_t k : kernel) {
    if (k == 0) return ctx.fail("the weight has an empty spatial dimension");
  }
  Result<Window> window =
      slidingWindow(ctx, std::span<const int64_t>(x).subspan(2), kernel, true, false);
  if (!window) return window.status();
  s.window = std::move(*window);
  return s;
}

/// convolve's way for a 1-D convolution without dilation (an audio front end's strided
/// Conv1d with a kernel hundreds wide): output column j reads, from each channel, the
/// contiguous run starting at j * stride - pad, so the column matrix is built transposed, a
/// row per output column, by copying runs (no index table), and multiplied with B
/// transposed by sgemm (float only: the other types take the general way). Parallel over
/// (image, group, column tile).
inline void convolveRuns(const KernelContext& ctx, const ConvShape& s, const float* x,
                         const float* w, const float* bias, float* y, float outside) {
  const Window& win = s.window;
  const size_t group = static_cast<size_t>(s.group);
  const size_t group_channels = static_cast<size_t>(s.channels) / group;
  const size_t group_outputs = static_cast<size_t>(s.outputs) / group;
  const size_t width = static_cast<size_t>(win.image[0]);
  const size_t kernel = static_cast<size_t>(win.kernel[0]);
  const size_t columns = static_cast<size_t>(win.columns[0]);
  const int64_t stride = win.strides[0], pad = win.pad_begin[0];
  const size_t depth = group_channels * kernel;
  const size_t images = static_cast<size_t>(s.batch) * group;
  // At least four tasks where the columns allow tiles of 16, whatever the thread count: the
  // tiling, and so each element's sum, does not depend on the threads.
  constexpr size_t kFewestTasks = 4;
  size_t tile = columnTile(depth, columns);
  if (images < kFewestTasks) {
    size_t wanted = (kFewestTasks + images - 1) / images;
    tile = std::min(tile, std::max<size_t>(16, (columns + wanted - 1) / wanted));
  }
  const size_t tiles = (columns + tile - 1) / tile;
  parallelFor(ctx, images * tiles, 1, [&](size_t begin, size_t end) {
    std::vector<float> rows(depth * tile);
    for (size_t task = begin; task < end; ++task) {
      const size_t t = task % tiles, g = (task / tiles) % group, n = task / tiles / group;
      const size_t p0 = t * tile, p1 = std::min(columns, p0 + tile);
      const float* image = x + (n * static_cast<size_t>(s.channels) + g * group_channels) * width;
      for (size_t j = p0; j < p1; ++j) {
        float* row = rows.data() + (j - p0) * depth;
        const int64_t first = static_cast<int64_t>(j) * stride - pad;
        // The part of [first, first + kernel) inside the image.
        const int64_t lo = std::clamp<int64_t>(-first, 0, static_cast<int64_t>(kernel));
        const int64_t hi = std::clamp<int64_t>(static_cast<int64_t>(width) - first, lo,
                                               static_cast<int64_t>(kernel));
        for (size_t c = 0; c < group_channels; ++c) {
          float* to = row + c * kernel;
          const float* from = image + c * width;
          std::fill(to, to + lo, outside);
          if (hi > lo) std::copy(from + first + lo, from + first + hi, to + lo);
          std::fill(to + hi, to + kernel, outside);
        }
      }
      float* out = y + (n * static_cast<size_t>(s.outputs) + g * group_outputs) * columns + p0;
      const float* weights = w + g * group_outputs * depth;
      multiplyFloatOnThisThread(ctx, false, true, group_outputs, p1 - p0, depth, 1.0f, weights,
                                depth, rows.data(), depth, 0.0f, out, columns);
      if (bias != nullptr) {
        for (size_t m = 0; m < group_outputs; ++m) {
          float add = bias[g * group_outputs + m];
          float* row = out + m * columns;
          for (size_t j = 0; j < p1 - p0; ++j) row[j] += add;
        }
      }
    }
  });
}

/// y = the convolution of x by w (plus bias[m] on output channel m when bias is not null), all
/// row-major as ConvShape says; `outside` is the value read outside the image. im2col + gemm,
/// parallel over (image, group, column tile).
template <class T>
inline void convolve(const KernelContext& ctx, const ConvShape& s, const T* x, const T* w,
                     const T* bias, T* y, T outside = T(0)) {
  const Window& win = s.window;
  if constexpr (std::is_same_v<T, float>) {
    if (win.rank() == 1 && win.dilations[0] == 1 && win.kernel[0] > 1 && s.batch > 0 &&
        s.outputs > 0 && win.columns[0] > 0) {
      convolveRuns(ctx, s, x, w, bias, y, outside);
      return;
    }
  }
  size_t group = static_cast<size_t>(s.group);
  size_t group_channels = static_cast<size_t>(s.channels) / group;
  size_t group_outputs = static_cast<size_t>(s.outputs) / group;
  size_t image_volume = win.imageVolume();
  size_t columns = win.columnVolume();
  size_t depth = group_channels * win.kernelVolume();  // K of the product
  if (columns == 0 || s.batch == 0 || s.outputs == 0) return;
  bool direct = true;
  for (size_t a = 0; a < win.rank(); ++a) {
    direct = direct && win.kernel[a] == 1 && win.strides[a] == 1 && win.pad_begin[a] == 0 &&
             win.pad_end[a] == 0;
  }
  TapTable table = direct ? TapTable() : tapTable(win);
  size_t tile = columnTile(depth, columns);
  size_t tiles = (columns + tile - 1) / tile;
  size_t tasks = static_cast<size_t>(s.batch) * group * tiles;
  parallelFor(ctx, tasks, grainFor(group_outputs * depth * tile), [&](size_t begin, size_t end) {
    std::vector<T> col(direct ? 0 : depth * tile);
    for (size_t task = begin; task < end; ++task) {
      size_t t = task % tiles;
      size_t g = (task / tiles) % group;
      size_t n = task / tiles / group;
      size_t p0 = t * tile;
      size_t p1 = std::min(columns, p0 + tile);
      const T* image =
          x + (n * static_cast<size_t>(s.channels) + g * group_channels) * image_volume;
      const T* b = nullptr;
      size_t ldb = 0;
      if (direct) {
        b = image + p0;
        ldb = image_volume;
      } else {
        im2col(win, table, image, group_channels, p0, p1, col.data(), outside);
        b = col.data();
        ldb = p1 - p0;
      }
      T* out = y + (n * static_cast<size_t>(s.outputs) + g * group_outputs) * columns + p0;
      if constexpr (std::is_same_v<T, float>) {
        multiplyFloatOnThisThread(ctx, false, false, group_outputs, p1 - p0, depth, 1.0f,
                                  w + g * group_outputs * depth, depth, b, ldb, 0.0f, out, columns);
      } else {
        gemm(group_outputs, p1 - p0, depth, w + g * group_outputs * depth, depth, b, ldb, out,
             columns);
      }
      if (bias != nullptr) {
        for (size_t m = 0; m < group_outputs; ++m) {
          T add = bias[g * group_outputs + m];
          T* row = out + m * columns;
          for (size_t j = 0; j < p1 - p0; ++j) row[j] += add;
        }
      }
    }
  });
}

// ---- integer convolution ----------------------------------------------------------------

/// to[i] = from[first + i] - zero for i < count, where `from` holds INT8 or UINT8 elements:
/// a byte less a zero point of either byte type lies in [-383, 383], so it fits int16.
inline void bytesLessZero(const Array& from, int32_t zero, size_t first, size_t count,
                          int16_t* to) {
  // Byte pointers may alias anything: restrict says these do not, or the loop stays scalar.
  int16_t* __restrict target = to;
  auto widen = [&](const auto* __restrict bytes) {
    for (size_t i = 0; i < count; ++i) target[i] = static_cast<int16_t>(bytes[first + i] - zero);
  };
  if (from.type() == ElementType::kInt8) {
    widen(from.data<int8_t>());
  } else {
    widen(from.data<uint8_t>());
  }
}

/// im2col's columns for the integer convolution, each element less `less` (the input's zero
/// point, the image being bytes and the columns int16; or a shift of int8 bytes to uint8 ones),
/// where the outside reads as `outside` (0 less the zero point; the zero point for bytes), by
/// runs:
/// along the last axis the window positions that fall inside the image form one range (the image
/// index grows with the position), copied as a block (stride 1) or a strided loop and the rest
/// zeroed, instead of a table lookup and a test per element. The runs of each tap are found
/// once for all channels; the channels go one by one, so that a channel's taps read the same
/// few image rows while they are in L1.
template <class T, class Source>
inline void im2colByRuns(const Window& w, const TapTable& table, const Source* image,
                         size_t channels, size_t p0, size_t p1, int32_t less, T outside, T* col) {
  struct Run {
    size_t offset;                            // of the run's first position, from p0
    size_t inside_begin, inside_end, length;  // within the run
    int64_t first;                            // the image offset read at inside_begin
  };
  const size_t taps_count = w.kernelVolume();
  const size_t image_volume = w.imageVolume();
  const size_t width = p1 - p0;
  const size_t stride = static_cast<size_t>(w.strides[w.rank() - 1]);
  std::vector<Run> runs;
  std::vector<size_t> tap_runs(taps_count + 1, 0);  // tap t's runs: [tap_runs[t], tap_runs[t+1])
  std::vector<int64_t> taps(w.rank());
  for (size_t t = 0; t < taps_count; ++t) {
    tapCoordinates(w, t, taps.data());
    forEachRun(
        w, table, taps.data(), p0, p1,
        [&](size_t offset, int64_t base, const int64_t* index, size_t j0, size_t run) {
          size_t lo = 0, hi = 0;
          if (base >= 0) {
            hi = run;
            while (lo < run && index[j0 + lo] < 0) ++lo;
            while (hi > lo && index[j0 + hi - 1] < 0) --hi;
          }
          runs.push_back({offset, lo, std::max(lo, hi), run, lo < hi ? base + index[j0 + lo] : 0});
        });
    tap_runs[t + 1] = runs.size();
  }
  for (size_t c = 0; c < channels; ++c) {
    const Source* src = image + c * image_volume;
    for (size_t t = 0; t < taps_count; ++t) {
      T* dst = col + (c * taps_count + t) * width;
      for (size_t r = tap_runs[t]; r < tap_runs[t + 1]; ++r) {
        const Run& run = runs[r];
        T* out = dst + run.offset;
        std::fill(out, out + run.inside_begin, outside);
        std::fill(out + run.inside_end, out + run.length, outside);
        const size_t count = run.inside_end - run.inside_begin;
        if (count == 0) continue;
        const Source* __restrict from = src + run.first;
        T* __restrict to = out + run.inside_begin;
        if (stride == 1) {
          for (size_t j = 0; j < count; ++j) to[j] = static_cast<T>(from[j] - less);
          continue;
        }
        withStride(stride, [&]<size_t kStride>() {
          const size_t step = kStride != 0 ? kStride : stride;
          for (size_t j = 0; j < count; ++j) to[j] = static_cast<T>(from[j * step] - less);
        });
      }
    }
  }
}

/// Whether the integer convolution's products take four bytes a step (byteQuadGemm, with
/// AVX512-VNNI) at `tier`, rather than two widened ones (bytePairGemm).
inline bool byteQuadsRun(CpuTier tier) { return tier >= CpuTier::kAvx512Vnni; }

/// A grouped integer convolution's weights, each group's (outputs / group rows, the depth
/// channels / group * kernel volume) packed for the product `tier` runs: less their zero points
/// for bytePairGemm (`pairs`), or as int8 with theirs for byteQuadGemm (`quads`). Made once
/// per run by integerConvolution, and kept by the evaluator from run to run when the weights
/// are constant. `w` is INT8 or UINT8 of `shape`'s weight shape; `w_zero` null (0), one value
/// or one per output channel, of w's type.
struct IntegerConvolutionWeights {
  std::vector<BytePairLeft> pairs;
  std::vector<ByteQuadLeft> quads;
};

inline IntegerConvolutionWeights packIntegerConvolutionWeights(const ConvShape& shape,
                                                               const Array& w, const Array* w_zero,
                                                               CpuTier tier) {
  const size_t group = static_cast<size_t>(shape.group);
  const size_t group_outputs = static_cast<size_t>(shape.outputs) / group;
  const size_t depth = static_cast<size_t>(shape.channels) / group * shape.window.kernelVolume();
  auto zeroOf = [&](size_t output) {
    if (w_zero == nullptr) return int32_t{0};
    return byteAt(*w_zero, w_zero->size() == 1 ? 0 : output);
  };
  IntegerConvolutionWeights packed;
  if (byteQuadsRun(tier)) {
    // uint8 weights less 128 are int8, their zero points with them: the differences stay.
    const int32_t shift = w.type() == ElementType::kUint8 ? 128 : 0;
    std::vector<int8_t> group_weights(group_outputs * depth);
    std::vector<int32_t> zeros(group_outputs);
    packed.quads.resize(group);
    for (size_t g = 0; g < group; ++g) {
      for (size_t m = 0; m < group_outputs; ++m) {
        const size_t output = g * group_outputs + m;
        zeros[m] = zeroOf(output) - shift;
        for (size_t k = 0; k < depth; ++k) {
          group_weights[m * depth + k] = static_cast<int8_t>(byteAt(w, output * depth + k) - shift);
        }
      }
      packed.quads[g] =
          ByteQuadLeft(group_outputs, depth, group_weights.data(), depth, zeros.data());
    }
    return packed;
  }
  packed.pairs.resize(group);
  std::vector<int16_t> group_weights(group_outputs * depth);
  for (size_t g = 0; g < group; ++g) {
    for (size_t m = 0; m < group_outputs; ++m) {
      const size_t output = g * group_outputs + m;
      bytesLessZero(w, zeroOf(output), output * depth, depth, group_weights.data() + m * depth);
    }
    packed.pairs[g] = BytePairLeft(group_outputs, depth, group_weights.data(), depth);
  }
  return packed;
}

/// One tile of integerConvolutionTiles's sums: output channels [first_output, first_output +
/// outputs) (one group's) of image `image`, output columns (pixels) [begin, end); the sum of
/// channel first_output + m at column j is sums[m * ld + j - begin].
struct IntegerSumsTile {
  size_t image = 0;
  size_t first_output = 0;
  size_t outputs = 0;
  size_t begin = 0;
  size_t end = 0;
  const int32_t* sums = nullptr;
  size_t ld = 0;
};

/// The sums of an integer convolution of x (INT8 or UINT8, of `shape`'s input shape, less
/// `x_zero`) with `weights`, plus `bias` (one int32 per output channel) when not null, tile by
/// tile in parallel over (image, group, column tile): each tile's sums are written into `into`
/// (the (N, M, columns...) INT32 result) when not null, else into a scratch tile of the thread
/// that computes them, and `consume(const IntegerSumsTile&)` runs on that thread while they are
/// in its cache (tiles run concurrently; each is consumed once).
///
/// With weights packed in pairs, x is widened to int16 less its zero point tile by tile, as
/// im2col gathers it (or, for a 1x1 convolution with stride 1 and no padding, as the tile's
/// pixels are copied); the padding reads as 0, x_zero less itself. With weights packed in
/// quads, im2col gathers x's bytes (int8 ones plus 128, as uint8) and the padding reads as the
/// zero point; a 1x1 convolution of uint8 reads the image in place. The sums are exact and wrap
/// modulo 2^32 as the spec's int32 accumulator does, on every CPU tier and thread count.
template <class Consume>
void integerConvolutionTiles(const KernelContext& ctx, const ConvShape& shape, const Array& x,
                             int32_t x_zero, const IntegerConvolutionWeights& weights,
                             const int32_t* bias, int32_t* into, Consume&& consume) {
  const Window& win = shape.window;
  const size_t group = static_cast<size_t>(shape.group);
  const size_t channels = static_cast<size_t>(shape.channels);
  const size_t outputs = static_cast<size_t>(shape.outputs);
  const size_t group_channels = channels / group;
  const size_t group_outputs = outputs / group;
  const size_t image_volume = win.imageVolume();
  const size_t columns = win.columnVolume();
  const size_t depth = group_channels * win.kernelVolume();  // K of the product
  const bool avx2 = ctx.cpuTier() >= CpuTier::kAvx2;
  const bool vnni = ctx.cpuTier() >= CpuTier::kAvx512Vnni;
  const bool quads = !weights.quads.empty();
  const bool signed_x = x.type() == ElementType::kInt8;
  // In quads: int8 bytes plus 128 are uint8 ones, the zero point with them.
  const int32_t byte_shift = quads && signed_x ? -128 : 0;
  const int32_t shifted_zero = x_zero - byte_shift;
  bool direct = true;
  for (size_t a = 0; a < win.rank(); ++a) {
    direct = direct && win.kernel[a] == 1 && win.strides[a] == 1 && win.pad_begin[a] == 0 &&
             win.pad_end[a] == 0;
  }
  const TapTable table = direct ? TapTable() : tapTable(win);
  // convolve's tiles, widened to whole panels of the kernel's columns (a panel cut short costs
  // a whole one).
  const size_t panel = quads ? 32 : 16;
  const size_t tile = std::min(columns, (columnTile(depth, columns) + panel - 1) / panel * panel);
  const size_t tiles = (columns + tile - 1) / tile;
  const size_t tasks = static_cast<size_t>(shape.batch) * group * tiles;
  parallelFor(ctx, tasks, grainFor(group_outputs * depth * tile), [&](size_t begin, size_t end) {
    std::vector<int16_t> col(quads ? 0 : depth * tile);
    std::vector<uint8_t> byte_col(quads ? depth * tile : 0);
    std::vector<int32_t> scratch(into != nullptr ? 0 : group_outputs * tile);
    for (size_t task = begin; task < end; ++task) {
      const size_t t = task % tiles;
      const size_t g = (task / tiles) % group;
      const size_t n = task / tiles / group;
      const size_t p0 = t * tile;
      const size_t p1 = std::min(columns, p0 + tile);
      const size_t width = p1 - p0;
      const size_t first = (n * channels + g * group_channels) * image_volume;
      const size_t first_output = g * group_outputs;
      int32_t* out = scratch.data();
      size_t ld = width;
      if (into != nullptr) {
        out = into + (n * outputs + first_output) * columns + p0;
        ld = columns;
      }
      // The tile's columns into `to` (int16 or uint8): each element less `less`, the outside
      // `outside`.
      auto gather = [&](auto* to, int32_t less, auto outside) {
        using T = std::remove_pointer_t<decltype(to)>;
        auto from_image = [&](const auto* image) {
          if (!direct) {
            im2colByRuns(win, table, image, group_channels, p0, p1, less, outside, to);
            return;
          }
          for (size_t c = 0; c < group_channels; ++c) {
            const auto* __restrict from = image + c * image_volume + p0;
            T* __restrict column = to + c * width;
            for (size_t j = 0; j < width; ++j) column[j] = static_cast<T>(from[j] - less);
          }
        };
        if (signed_x) {
          from_image(x.data<int8_t>() + first);
        } else {
          from_image(x.data<uint8_t>() + first);
        }
      };
      if (!quads) {
        gather(col.data(), x_zero, int16_t{0});
        bytePairGemm(weights.pairs[g], width, col.data(), width, out, ld, avx2);
      } else if (direct && !signed_x) {
        // A 1x1 convolution of uint8 reads the image in place.
        byteQuadGemm(weights.quads[g], width, x.data<uint8_t>() + first + p0, image_volume,
                     shifted_zero, out, ld, vnni);
      } else {
        gather(byte_col.data(), byte_shift, static_cast<uint8_t>(shifted_zero));
        byteQuadGemm(weights.quads[g], width, byte_col.data(), width, shifted_zero, out, ld, vnni);
      }
      if (bias != nullptr) {
        for (size_t m = 0; m < group_outputs; ++m) {
          // Wrapping, as the sums do.
          const auto add = static_cast<uint32_t>(bias[first_output + m]);
          int32_t* row = out + m * ld;
          for (size_t j = 0; j < width; ++j) {
            row[j] = static_cast<int32_t>(static_cast<uint32_t>(row[j]) + add);
          }
        }
      }
      consume(IntegerSumsTile{.image = n,
                              .first_output = first_output,
                              .outputs = group_outputs,
                              .begin = p0,
                              .end = p1,
                              .sums = out,
                              .ld = ld});
    }
  });
}

/// The integer convolution of ConvInteger and QLinearConv: (x - x_zero) * (w - w_zero) summed
/// in int32 (plus bias when not null: INT32 of shape [M]), as an INT32 (N, M, out...) array.
/// x and w are INT8 or UINT8; x_zero a single value of x's type; w_zero a single value or one
/// per output channel, of w's type; either may be null (zero). The weights are packed here
/// (packIntegerConvolutionWeights), then integerConvolutionTiles sums into the result.
inline Result<Array> integerConvolution(const KernelContext& ctx, const Array& x,
                                        const Array* x_zero, const Array& w, const Array* w_zero,
                                        const Array* bias) {
  if (!isByteType(x.type()) || !isByteType(w.type())) {
    return ctx.fail("x and w must be int8 or uint8");
  }
  Result<ConvShape> shape = convShape(ctx, x.shape(), w.shape());
  if (!shape) return shape.status();
  if (x_zero != nullptr && (x_zero->type() != x.type() || x_zero->size() != 1)) {
    return ctx.fail("x_zero_point must be a single value of x's type");
  }
  const size_t outputs = static_cast<size_t>(shape->outputs);
  if (w_zero != nullptr && (w_zero->type() != w.type() || w_zero->rank() > 1 ||
                            (w_zero->size() != 1 && w_zero->size() != outputs))) {
    return ctx.fail("w_zero_point must be a single value or one per output channel, of w's type");
  }
  if (bias != nullptr && (bias->type() != ElementType::kInt32 || bias->rank() != 1 ||
                          bias->dim(0) != shape->outputs)) {
    return ctx.fail("B must be an int32 tensor of shape [" + std::to_string(outputs) + "]");
  }
  std::vector<int64_t> dims = {shape->batch, shape->outputs};
  dims.insert(dims.end(), shape->window.columns.begin(), shape->window.columns.end());
  Result<Array> made = Array::allocate(ElementType::kInt32, dims);
  if (!made) return made.status();
  Array y = std::move(*made);
  if (y.size() == 0) return y;
  const IntegerConvolutionWeights weights =
      packIntegerConvolutionWeights(*shape, w, w_zero, ctx.cpuTier());
  integerConvolutionTiles(ctx, *shape, x, x_zero != nullptr ? byteAt(*x_zero, 0) : 0, weights,
                          bias != nullptr ? bias->data<int32_t>() : nullptr, y.data<int32_t>(),
                          [](const IntegerSumsTile&) {});
  return y;
}

}  // namespace onyx::ops::nn
