// Internal: what operators' kernels share (docs/eval.md): broadcasting, element-type
// dispatch, shape arithmetic on Arrays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::ops {

/// The numpy broadcast of two shapes; nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> broadcastShape(const std::vector<int64_t>& a,
                                                   const std::vector<int64_t>& b);

/// For each element of a broadcast result of `out_shape`, the flat index into an input of
/// `in_shape` (right-aligned, size-1 axes repeated). O(elements).
std::vector<size_t> broadcastIndices(const std::vector<int64_t>& in_shape,
                                     const std::vector<int64_t>& out_shape);

/// The shape as text, "[2, 3]".
inline std::string shapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

/// Calls `f.template operator()<T>()` with the C++ type of `type`'s storage for the
/// numeric types kernels commonly compute on natively (float, double, the integers, bool);
/// returns false for any other type.
template <class F>
bool dispatchNative(ElementType type, F&& f) {
  switch (type) {
    case ElementType::kFloat: f.template operator()<float>(); return true;
    case ElementType::kDouble: f.template operator()<double>(); return true;
    case ElementType::kInt8: f.template operator()<int8_t>(); return true;
    case ElementType::kInt16: f.template operator()<int16_t>(); return true;
    case ElementType::kInt32: f.template operator()<int32_t>(); return true;
    case ElementType::kInt64: f.template operator()<int64_t>(); return true;
    case ElementType::kUint8: f.template operator()<uint8_t>(); return true;
    case ElementType::kUint16: f.template operator()<uint16_t>(); return true;
    case ElementType::kUint32: f.template operator()<uint32_t>(); return true;
    case ElementType::kUint64: f.template operator()<uint64_t>(); return true;
    case ElementType::kBool: f.template operator()<bool>(); return true;
    default: return false;
  }
}

/// As dispatchNative, for FLOAT and DOUBLE only.
template <class F>
bool dispatchFloat(ElementType type, F&& f) {
  switch (type) {
    case ElementType::kFloat: f.template operator()<float>(); return true;
    case ElementType::kDouble: f.template operator()<double>(); return true;
    default: return false;
  }
}

/// As dispatchNative, for the integer types of 8 bits and more.
template <class F>
bool dispatchInteger(ElementType type, F&& f) {
  switch (type) {
    case ElementType::kInt8: f.template operator()<int8_t>(); return true;
    case ElementType::kInt16: f.template operator()<int16_t>(); return true;
    case ElementType::kInt32: f.template operator()<int32_t>(); return true;
    case ElementType::kInt64: f.template operator()<int64_t>(); return true;
    case ElementType::kUint8: f.template operator()<uint8_t>(); return true;
    case ElementType::kUint16: f.template operator()<uint16_t>(); return true;
    case ElementType::kUint32: f.template operator()<uint32_t>(); return true;
    case ElementType::kUint64: f.template operator()<uint64_t>(); return true;
    default: return false;
  }
}

/// Runs `body(begin, end)` over [0, count) in contiguous chunks of at least `grain` items,
/// on up to ctx.threads() threads. Each index is handled exactly once, so a body that writes
/// only its own indices gives the same result for every thread count.
void parallelFor(const KernelContext& ctx, size_t count, size_t grain,
                 const std::function<void(size_t begin, size_t end)>& body);

/// Copies `count` elements (strings included) from `from` at `from_index` to `to` at
/// `to_index`; both arrays have the same element type.
void copyElements(const Array& from, size_t from_index, Array& to, size_t to_index, size_t count);

/// Row-major strides (in elements) of `shape`.
std::vector<size_t> stridesOf(const std::vector<int64_t>& shape);

/// `axis` in [-rank, rank) as an index in [0, rank); nullopt when out of range.
std::optional<size_t> kernelAxis(int64_t axis, size_t rank);

/// The elements of an integer tensor (INT32 or INT64, any rank) as int64; nullopt for other
/// types.
std::optional<std::vector<int64_t>> integersOf(const Array& array);

/// An INT64 array of `shape` holding `values`.
Array int64Array(const std::vector<int64_t>& values, std::vector<int64_t> shape);

}  // namespace onyx::ops
