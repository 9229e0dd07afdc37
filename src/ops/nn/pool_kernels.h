// Internal: what the pooling kernels share (AveragePool, MaxPool, LpPool, the global
// poolings): reading a pooling node's window, and visiting each output position's taps that
// fall inside the input, with the ranges precomputed per axis rather than tested per tap.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/ops/kernel_context.h"
#include "ops/kernels.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::ops::nn {

/// Whether `v` is a NaN (false for integers).
template <class T>
inline bool isNan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

/// The window of a pooling node over an input of shape `x` (N, C, D1, ...): kernel_shape
/// (required), strides, dilations (when `use_dilations`), pads, auto_pad, ceil_mode.
inline Result<Window> poolWindow(const KernelContext& ctx, std::span<const int64_t> x,
                                 bool use_dilations) {
  if (x.size() < 3) {
    return ctx.fail("the input has rank " + std::to_string(x.size()) +
                    "; a pooling needs (N, C, D1, ...)");
  }
  size_t rank = x.size() - 2;
  std::optional<std::vector<int64_t>> given = ctx.intsAttribute("kernel_shape");
  if (!given || given->empty()) return ctx.fail("kernel_shape is required");
  Result<std::vector<int64_t>> kernel = axisInts(ctx, "kernel_shape", rank, 1, 1);
  if (!kernel) return kernel.status();
  return slidingWindow(ctx, x.subspan(2), std::move(*kernel), use_dilations, true);
}

inline Result<Window> poolWindow(const KernelContext& ctx, const Array& x, bool use_dilations) {
  return poolWindow(ctx, std::span<const int64_t>(x.shape()), use_dilations);
}

/// The taps of one output position that fall inside the image: along axis a, count[a] taps
/// starting at image index first[a], `jump[a]` elements apart in the flattened image; `padded`
/// is the number of taps inside the padded image (pads included, the ceil_mode overhang not).
struct PoolTaps {
  size_t rank = 0;
  const int64_t* first = nullptr;
  const int64_t* count = nullptr;
  const int64_t* jump = nullptr;
  const int64_t* image_strides = nullptr;
  int64_t* counter = nullptr;
  double padded = 0;

  /// The number of taps inside the image.
  int64_t valid() const {
    int64_t product = 1;
    for (size_t a = 0; a < rank; ++a) product *= count[a];
    return product;
  }

  /// Calls f(offset) with each tap's row-major offset in the image.
  template <class F>
  void each(F&& f) const {
    if (rank == 0) {
      f(int64_t{0});
      return;
    }
    int64_t base = 0;
    for (size_t a = 0; a < rank; ++a) {
      if (count[a] <= 0) return;
      base += first[a] * image_strides[a];
      counter[a] = 0;
    }
    size_t last = rank - 1;
    int64_t inner = count[last];
    int64_t step = jump[last];
    for (;;) {
      int64_t offset = base;
      for (int64_t k = 0; k < inner; ++k, offset += step) f(offset);
      size_t a = last;
      for (;;) {
        if (a == 0) return;
        --a;
        if (++counter[a] < count[a]) {
          base += jump[a];
          break;
        }
        base -= (count[a] - 1) * jump[a];
        counter[a] = 0;
      }
    }
  }
};

/// Calls f(plane, output position, taps) for every (N * C) plane of the input and every
/// output position of `w`, parallel over planes.
/// Per output position along one axis of a window: the first valid tap's image index, the
/// number of valid taps, the number of taps inside the padded image.
struct AxisTaps {
  std::vector<int64_t> first;
  std::vector<int64_t> count;
  std::vector<int64_t> padded;
};

inline AxisTaps axisTaps(const Window& w, size_t a) {
  AxisTaps taps;
  int64_t in = w.image[a];
  int64_t d = w.dilations[a];
  int64_t k = w.kernel[a];
  for (int64_t o = 0; o < w.columns[a]; ++o) {
    int64_t start = o * w.strides[a] - w.pad_begin[a];
    int64_t lo = start >= 0 ? 0 : (-start + d - 1) / d;
    int64_t hi = in - 1 - start < 0 ? 0 : std::min(k, (in - 1 - start) / d + 1);
    taps.first.push_back(start + lo * d);
    taps.count.push_back(std::max<int64_t>(0, hi - lo));
    int64_t limit = in + w.pad_end[a] - 1 - start;
    taps.padded.push_back(limit < 0 ? 0 : std::min(k, limit / d + 1));
  }
  return taps;
}

/// The output positions [begin, end) of an axis whose windows lie wholly inside the input
/// (all taps valid, the first at begin * stride - pad_begin): a contiguous range, empty when
/// there is none. Pooling loops run them tap by tap, a loop the compiler vectorizes.
struct InteriorRange {
  size_t begin = 0;
  size_t end = 0;
};

inline InteriorRange interiorOf(const AxisTaps& taps, int64_t kernel) {
  InteriorRange range;
  size_t size = taps.count.size();
  while (range.begin < size && taps.count[range.begin] != kernel) ++range.begin;
  range.end = range.begin;
  while (range.end < size && taps.count[range.end] == kernel) ++range.end;
  return range;
}

template <class F>
inline void forEachPoolWindow(const KernelContext& ctx, const Window& w, size_t planes, F&& f) {
  size_t rank = w.rank();
  if (planes == 0 || w.columnVolume() == 0) return;
  std::vector<std::vector<int64_t>> first(rank), count(rank), padded(rank);
  for (size_t a = 0; a < rank; ++a) {
    AxisTaps taps = axisTaps(w, a);
    first[a] = std::move(taps.first);
    count[a] = std::move(taps.count);
    padded[a] = std::move(taps.padded);
  }
  std::vector<int64_t> strides(rank, 1);
  for (size_t a = rank; a-- > 1;) strides[a - 1] = strides[a] * w.image[a];
  std::vector<int64_t> jumps(rank);
  for (size_t a = 0; a < rank; ++a) jumps[a] = w.dilations[a] * strides[a];
  size_t outputs = w.columnVolume();
  size_t work = outputs * std::min<size_t>(w.kernelVolume(), w.imageVolume());
  parallelFor(ctx, planes, grainFor(work), [&](size_t begin, size_t end) {
    std::vector<int64_t> tap_first(rank), tap_count(rank), counter(rank), coords(rank);
    PoolTaps taps;
    taps.rank = rank;
    taps.first = tap_first.data();
    taps.count = tap_count.data();
    taps.jump = jumps.data();
    taps.image_strides = strides.data();
    taps.counter = counter.data();
    for (size_t plane = begin; plane < end; ++plane) {
      std::fill(coords.begin(), coords.end(), 0);
      for (size_t p = 0; p < outputs; ++p) {
        double in_padding = 1;
        for (size_t a = 0; a < rank; ++a) {
          size_t o = static_cast<size_t>(coords[a]);
          tap_first[a] = first[a][o];
          tap_count[a] = count[a][o];
          in_padding *= static_cast<double>(padded[a][o]);
        }
        taps.padded = in_padding;
        f(plane, p, taps);
        for (size_t a = rank; a-- > 0;) {
          if (++coords[a] < w.columns[a]) break;
          coords[a] = 0;
        }
      }
    }
  });
}

/// The output shape (N, C, columns...) of a pooling of `x`.
inline std::vector<int64_t> poolOutputShape(const Array& x, const Window& w) {
  std::vector<int64_t> dims = {x.dim(0), x.dim(1)};
  dims.insert(dims.end(), w.columns.begin(), w.columns.end());
  return dims;
}

/// A pooling's p attribute: an int from version 2, a float in version 1.
inline double poolP(const KernelContext& ctx) {
  if (std::optional<int64_t> p = ctx.intAttribute("p")) return static_cast<double>(*p);
  if (std::optional<float> p = ctx.floatAttribute("p")) return *p;
  return 2;
}

/// A global pooling: y (N, C, 1, ..., 1) with y[n, c] = reduce(plane, volume) over each
/// (n, c) plane of x (float and double natively, the narrow types in float). `reduce` is a
/// generic callable (const T*, size_t) -> double; an empty plane fails unless `allow_empty`.
template <class Reduce>
inline Status globalPool(KernelContext& ctx, bool allow_empty, Reduce&& reduce) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  if (x->rank() < 2) {
    return ctx.fail("the input has rank " + std::to_string(x->rank()) +
                    "; a global pooling needs (N, C, ...)");
  }
  std::vector<int64_t> dims(x->rank(), 1);
  dims[0] = x->dim(0);
  dims[1] = x->dim(1);
  size_t planes = static_cast<size_t>(dims[0] * dims[1]);
  size_t volume = planes == 0 ? 0 : x->size() / planes;
  if (planes == 0) {
    volume = 1;
    for (size_t a = 2; a < x->rank(); ++a) volume *= static_cast<size_t>(x->dim(a));
  }
  if (volume == 0 && planes > 0 && !allow_empty) {
    return ctx.fail("the input's spatial dimensions are empty");
  }
  Array xs = widenToFloat(*x);
  Array y(xs.type(), dims);
  bool ok = dispatchFloat(xs.type(), [&]<class T>() {
    const T* in = xs.data<T>();
    T* out = y.data<T>();
    parallelFor(ctx, planes, grainFor(volume), [&](size_t begin, size_t end) {
      for (size_t plane = begin; plane < end; ++plane) {
        out[plane] = static_cast<T>(reduce(in + plane * volume, volume));
      }
    });
  });
  if (!ok) return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(y, x->type()));
  return Status::ok();
}

}  // namespace onyx::ops::nn
