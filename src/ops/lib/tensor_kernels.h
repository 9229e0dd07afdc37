// Internal, header-only: what the data-movement kernels (src/ops/tensor, Flatten) share —
// moving elements of any type by their storage, strided copies between arrays, index
// checks, and lists an operator takes as an attribute in early versions and as an input
// later.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/quote.h"
#include "onyx/ops/kernel_context.h"
#include "ops/kernels.h"

namespace onyx::ops {

/// A 16-byte element (COMPLEX128), moved as a whole.
struct Element16 {
  uint64_t low;
  uint64_t high;
};

/// Calls `f.template operator()<T>()` with a type that moves `type`'s elements: std::string
/// for STRING, else an unsigned integer (or Element16) as wide as the stored element. False
/// for a type without storage.
template <class F>
bool dispatchStorage(ElementType type, F&& f) {
  if (type == ElementType::kString) {
    f.template operator()<std::string>();
    return true;
  }
  switch (arrayElementBytes(type)) {
    case 1: f.template operator()<uint8_t>(); return true;
    case 2: f.template operator()<uint16_t>(); return true;
    case 4: f.template operator()<uint32_t>(); return true;
    case 8: f.template operator()<uint64_t>(); return true;
    case 16: f.template operator()<Element16>(); return true;
    default: return false;
  }
}

/// The elements of `array` as the storage type `T` dispatchStorage chose.
template <class T>
T* elementsOf(Array& array) {
  if constexpr (std::is_same_v<T, std::string>) {
    return array.strings().data();
  } else {
    return array.data<T>();
  }
}
template <class T>
const T* elementsOf(const Array& array) {
  if constexpr (std::is_same_v<T, std::string>) {
    return array.strings().data();
  } else {
    return array.data<T>();
  }
}

/// Row-major strides of `shape`, signed (views with negative steps use them).
inline std::vector<int64_t> denseStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

/// The product of `dims` (the caller knows it does not overflow: an array's dims).
inline int64_t elementProduct(const std::vector<int64_t>& dims, size_t begin = 0,
                              size_t end = SIZE_MAX) {
  int64_t product = 1;
  for (size_t i = begin; i < std::min(end, dims.size()); ++i) product *= dims[i];
  return product;
}

/// Where the elements of a strided view are: element (i0, ..., in) is at
/// offset + i0 * strides[0] + ... + in * strides[n].
struct StridedView {
  int64_t offset = 0;
  std::vector<int64_t> strides;
};

namespace tensor_kernels_detail {

// Drops axes of size 1 and merges neighbours both views walk contiguously, so the innermost
// axis is as long as possible.
inline void coalesce(std::vector<int64_t>& dims, StridedView& a, StridedView& b) {
  std::vector<int64_t> d;
  std::vector<int64_t> sa;
  std::vector<int64_t> sb;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (!d.empty() && sa.back() == a.strides[i] * dims[i] && sb.back() == b.strides[i] * dims[i]) {
      d.back() *= dims[i];
      sa.back() = a.strides[i];
      sb.back() = b.strides[i];
      continue;
    }
    d.push_back(dims[i]);
    sa.push_back(a.strides[i]);
    sb.push_back(b.strides[i]);
  }
  dims = std::move(d);
  a.strides = std::move(sa);
  b.strides = std::move(sb);
}

template <class T>
void copyRun(const T* from, int64_t from_stride, T* to, int64_t to_stride, int64_t count) {
  if (from_stride == 1 && to_stride == 1) {
    std::copy_n(from, count, to);
    return;
  }
  for (int64_t i = 0; i < count; ++i) to[i * to_stride] = from[i * from_stride];
}

/// The outer axis of coalesced `dims` that `source` walks contiguously when the innermost
/// axis is strided in `source` but contiguous in `target`: a transpose, which copyStrided
/// copies in square tiles so that both sides move whole cache lines. nullopt otherwise.
inline std::optional<size_t> transposedAxis(const std::vector<int64_t>& dims,
                                            const StridedView& source, const StridedView& target) {
  if (dims.size() < 2 || source.strides.back() == 1 || target.strides.back() != 1) {
    return std::nullopt;
  }
  for (size_t axis = 0; axis + 1 < dims.size(); ++axis) {
    if (source.strides[axis] == 1) return axis;
  }
  return std::nullopt;
}

/// copyStrided's transpose: for each position of the outer axes other than `axis`, the
/// [dims[axis], inner] block in tiles of kTile x kTile, split over threads by rows of tiles.
template <class T>
void copyTransposed(const KernelContext& ctx, const std::vector<int64_t>& dims, size_t axis,
                    const T* in, const StridedView& source, T* out, const StridedView& target) {
  constexpr int64_t kTile = 16;
  const int64_t rows = dims[axis];
  const int64_t inner = dims.back();
  const int64_t inner_from = source.strides.back();
  const int64_t row_to = target.strides[axis];
  const int64_t tiles = (rows + kTile - 1) / kTile;
  std::vector<int64_t> other_dims;
  std::vector<int64_t> other_from;
  std::vector<int64_t> other_to;
  for (size_t a = 0; a + 1 < dims.size(); ++a) {
    if (a == axis) continue;
    other_dims.push_back(dims[a]);
    other_from.push_back(source.strides[a]);
    other_to.push_back(target.strides[a]);
  }
  const int64_t others = elementProduct(other_dims, 0, other_dims.size());
  const size_t grain =
      static_cast<size_t>(std::max<int64_t>(1, (int64_t{1} << 15) / (kTile * inner)));
  parallelFor(ctx, static_cast<size_t>(others * tiles), grain, [&](size_t begin, size_t end) {
    for (size_t item = begin; item < end; ++item) {
      const int64_t tile = static_cast<int64_t>(item) % tiles;
      int64_t rest = static_cast<int64_t>(item) / tiles;
      int64_t at_from = source.offset;
      int64_t at_to = target.offset;
      for (size_t a = other_dims.size(); a-- > 0;) {
        const int64_t position = rest % other_dims[a];
        rest /= other_dims[a];
        at_from += position * other_from[a];
        at_to += position * other_to[a];
      }
      const int64_t first = tile * kTile;
      const int64_t last = std::min(rows, first + kTile);
      for (int64_t column = 0; column < inner; column += kTile) {
        const int64_t stop = std::min(inner, column + kTile);
        for (int64_t r = first; r < last; ++r) {
          const T* from = in + at_from + r;
          T* to = out + at_to + r * row_to;
          for (int64_t c = column; c < stop; ++c) to[c] = from[c * inner_from];
        }
      }
    }
  });
}

}  // namespace tensor_kernels_detail

/// Copies the elements of a view of `dims` over `from` to the same positions of a view over
/// `to` (same element type). The views must stay inside their arrays. Parallel over the
/// outer axes when large; every element is written once, so the thread count does not
/// change the result.
inline void copyStrided(const KernelContext& ctx, std::vector<int64_t> dims, const Array& from,
                        StridedView source, Array& to, StridedView target) {
  for (int64_t dim : dims) {
    if (dim == 0) return;
  }
  tensor_kernels_detail::coalesce(dims, source, target);
  if (dims.empty()) {
    dims.push_back(1);
    source.strides.push_back(1);
    target.strides.push_back(1);
  }
  size_t outer_rank = dims.size() - 1;
  int64_t inner = dims.back();
  int64_t inner_from = source.strides.back();
  int64_t inner_to = target.strides.back();
  int64_t outer = elementProduct(dims, 0, outer_rank);
  size_t grain = static_cast<size_t>(std::max<int64_t>(1, (int64_t{1} << 15) / inner));
  std::optional<size_t> transposed = tensor_kernels_detail::transposedAxis(dims, source, target);
  dispatchStorage(from.type(), [&]<class T>() {
    const T* in = elementsOf<T>(from);
    T* out = elementsOf<T>(to);
    if (transposed) {
      tensor_kernels_detail::copyTransposed(ctx, dims, *transposed, in, source, out, target);
      return;
    }
    parallelFor(ctx, static_cast<size_t>(outer), grain, [&](size_t begin, size_t end) {
      std::vector<int64_t> position(outer_rank, 0);
      int64_t rest = static_cast<int64_t>(begin);
      int64_t at_from = source.offset;
      int64_t at_to = target.offset;
      for (size_t axis = outer_rank; axis-- > 0;) {
        position[axis] = rest % dims[axis];
        rest /= dims[axis];
        at_from += position[axis] * source.strides[axis];
        at_to += position[axis] * target.strides[axis];
      }
      for (size_t i = begin; i < end; ++i) {
        tensor_kernels_detail::copyRun(in + at_from, inner_from, out + at_to, inner_to, inner);
        for (size_t axis = outer_rank; axis-- > 0;) {
          at_from += source.strides[axis];
          at_to += target.strides[axis];
          if (++position[axis] < dims[axis]) break;
          at_from -= source.strides[axis] * dims[axis];
          at_to -= target.strides[axis] * dims[axis];
          position[axis] = 0;
        }
      }
    });
  });
}

/// Copies all of `from` (dense) into the view `target` of `to`.
inline void copyInto(const KernelContext& ctx, const Array& from, Array& to, StridedView target) {
  copyStrided(ctx, from.shape(), from, StridedView{0, denseStrides(from.shape())}, to,
              std::move(target));
}

/// Copies the view `source` of `from`, of `dims`, into `to` (dense, row-major).
inline void copyOut(const KernelContext& ctx, const std::vector<int64_t>& dims, const Array& from,
                    StridedView source, Array& to) {
  copyStrided(ctx, dims, from, std::move(source), to, StridedView{0, denseStrides(dims)});
}

/// The integers of an index input (INT32 or INT64), each negative one wrapped once by `size`;
/// an error naming `what` when one is out of [-size, size) or the type is not an integer.
inline Result<std::vector<int64_t>> wrappedIndices(const KernelContext& ctx, const Array& indices,
                                                   int64_t size, std::string_view what) {
  std::optional<std::vector<int64_t>> values = integersOf(indices);
  if (!values) return ctx.fail(std::string(what) + " must be int32 or int64");
  for (int64_t& index : *values) {
    if (index < -size || index >= size) {
      return ctx.fail(std::string(what) + " holds " + std::to_string(index) +
                      ", out of range for a dimension of " + std::to_string(size));
    }
    if (index < 0) index += size;
  }
  return std::move(*values);
}

/// A list of integers an operator reads from input `input` (when the node gives it) or,
/// when `input` is nullopt or absent, from attribute `attribute`; nullopt when neither
/// holds it. An input that is not an integer tensor of rank 0 or 1 is an error.
inline Result<std::optional<std::vector<int64_t>>> intListOf(const KernelContext& ctx,
                                                             std::optional<size_t> input,
                                                             std::string_view attribute) {
  if (input && ctx.hasInput(*input)) {
    const Array* array = ctx.inputArray(*input);
    if (array == nullptr || array->rank() > 1) {
      return ctx.fail("input " + std::to_string(*input) + " must be a 1-D integer tensor");
    }
    std::optional<std::vector<int64_t>> values = integersOf(*array);
    if (!values) return ctx.fail("input " + std::to_string(*input) + " must be int32 or int64");
    return std::optional<std::vector<int64_t>>(std::move(*values));
  }
  if (attribute.empty()) return std::optional<std::vector<int64_t>>();
  return ctx.intsAttribute(attribute);
}

/// `axes` in [-rank, rank) made non-negative; an error on one out of range or repeated.
inline Result<std::vector<size_t>> kernelAxes(const KernelContext& ctx,
                                              const std::vector<int64_t>& axes, size_t rank) {
  std::vector<size_t> out;
  out.reserve(axes.size());
  std::vector<bool> seen(rank, false);
  for (int64_t axis : axes) {
    std::optional<size_t> normal = kernelAxis(axis, rank);
    if (!normal) {
      return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                      std::to_string(rank));
    }
    if (seen[*normal]) return ctx.fail("axis " + std::to_string(axis) + " is repeated");
    seen[*normal] = true;
    out.push_back(*normal);
  }
  return out;
}

/// A new array of `type` and `shape`, or the allocation's error.
inline Result<Array> newArray(ElementType type, std::vector<int64_t> shape) {
  return Array::allocate(type, std::move(shape));
}

/// "no kernel for TYPE".
inline Status noKernelFor(const KernelContext& ctx, ElementType type) {
  return ctx.fail("no kernel for " + std::string(elementTypeName(type)));
}

// ---- scattering ---------------------------------------------------------------------------

/// How Scatter* combine an update with the element it lands on.
enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

/// The node's `reduction` attribute (kNone for versions without one).
inline Result<Reduction> reductionOf(const KernelContext& ctx) {
  std::string name(ctx.stringAttribute("reduction").value_or("none"));
  if (name == "none") return Reduction::kNone;
  if (name == "add") return Reduction::kAdd;
  if (name == "mul") return Reduction::kMul;
  if (name == "max") return Reduction::kMax;
  if (name == "min") return Reduction::kMin;
  return ctx.fail("unknown reduction " + quoted(name));
}

namespace tensor_kernels_detail {

// `a op b` for a reduction other than kNone; integers wrap around instead of overflowing.
template <class T>
T reduce(Reduction reduction, T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    switch (reduction) {
      case Reduction::kAdd:
        return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
      case Reduction::kMul:
        return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
      case Reduction::kMax: return std::max(a, b);
      case Reduction::kMin: return std::min(a, b);
      case Reduction::kNone: return b;
    }
  } else if constexpr (std::is_same_v<T, bool>) {
    switch (reduction) {
      case Reduction::kAdd:
      case Reduction::kMax: return a || b;
      case Reduction::kMul:
      case Reduction::kMin: return a && b;
      case Reduction::kNone: return b;
    }
  } else {
    switch (reduction) {
      case Reduction::kAdd: return a + b;
      case Reduction::kMul: return a * b;
      // NaN wins, as numpy's maximum and minimum.
      case Reduction::kMax: return (a != a || a > b) ? a : b;
      case Reduction::kMin: return (a != a || a < b) ? a : b;
      case Reduction::kNone: return b;
    }
  }
  return b;
}

}  // namespace tensor_kernels_detail

/// Writes block i of `updates` (elements [i * block, (i + 1) * block)) onto `out` at
/// targets[i], in order, combining by `reduction`. Targets are checked by the caller.
/// Narrow floating-point types combine in FLOAT; `out` may then be replaced.
inline Status scatterBlocks(const KernelContext& ctx, Array& out, const Array& updates,
                            const std::vector<size_t>& targets, size_t block, Reduction reduction) {
  if (reduction == Reduction::kNone) {
    dispatchStorage(out.type(), [&]<class T>() {
      const T* from = elementsOf<T>(updates);
      T* to = elementsOf<T>(out);
      for (size_t i = 0; i < targets.size(); ++i) {
        std::copy_n(from + i * block, block, to + targets[i]);
      }
    });
    return Status::ok();
  }
  ElementType type = out.type();
  bool narrow = isNarrowFloat(type);
  // Shares `out`'s elements unless narrow (then a FLOAT copy, narrowed back at the end).
  Array wide_out = narrow ? widenToFloat(out) : out;
  Array wide_updates = narrow ? widenToFloat(updates) : updates;
  bool ok = dispatchNative(wide_out.type(), [&]<class T>() {
    const T* from = wide_updates.data<T>();
    T* to = wide_out.data<T>();
    for (size_t i = 0; i < targets.size(); ++i) {
      for (size_t j = 0; j < block; ++j) {
        T& target = to[targets[i] + j];
        target = tensor_kernels_detail::reduce(reduction, target, from[i * block + j]);
      }
    }
  });
  if (!ok) return ctx.fail("no reduction for " + std::string(elementTypeName(type)));
  if (narrow) out = narrowFromFloat(wide_out, type);
  return Status::ok();
}

/// ScatterElements (and the older Scatter): data with updates written at the positions
/// `indices` give along `axis`.
inline Status scatterAlongAxis(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* indices = ctx.inputArray(1);
  const Array* updates = ctx.inputArray(2);
  if (data == nullptr || indices == nullptr || updates == nullptr) {
    return ctx.fail("needs data, indices and updates tensors");
  }
  size_t rank = data->rank();
  if (rank == 0) return ctx.fail("data must have rank 1 or more");
  if (indices->rank() != rank) {
    return ctx.fail("indices have rank " + std::to_string(indices->rank()) + ", data " +
                    std::to_string(rank));
  }
  if (updates->shape() != indices->shape()) return ctx.fail("updates' shape is not indices'");
  if (updates->type() != data->type()) return ctx.fail("updates' type is not data's");
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(0), rank);
  if (!axis) return ctx.fail("axis is out of range for rank " + std::to_string(rank));
  for (size_t d = 0; d < rank; ++d) {
    if (d != *axis && indices->dim(d) > data->dim(d)) {
      return ctx.fail("indices' dimension " + std::to_string(d) + " (" +
                      std::to_string(indices->dim(d)) + ") exceeds the data's (" +
                      std::to_string(data->dim(d)) + ")");
    }
  }
  Result<Reduction> reduction = reductionOf(ctx);
  if (!reduction) return reduction.status();
  Result<std::vector<int64_t>> where = wrappedIndices(ctx, *indices, data->dim(*axis), "indices");
  if (!where) return where.status();
  std::vector<int64_t> strides = denseStrides(data->shape());
  const std::vector<int64_t>& dims = indices->shape();
  std::vector<size_t> targets(indices->size());
  std::vector<int64_t> position(rank, 0);
  int64_t base = 0;  // the data offset of `position` without the axis term
  for (size_t i = 0; i < targets.size(); ++i) {
    targets[i] = static_cast<size_t>(base + (*where)[i] * strides[*axis]);
    for (size_t d = rank; d-- > 0;) {
      if (d != *axis) base += strides[d];
      if (++position[d] < dims[d]) break;
      if (d != *axis) base -= strides[d] * dims[d];
      position[d] = 0;
    }
  }
  Array out = data->clone();
  ONYX_RETURN_IF_ERROR(scatterBlocks(ctx, out, *updates, targets, 1, *reduction));
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace onyx::ops
