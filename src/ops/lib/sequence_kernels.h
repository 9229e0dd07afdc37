// Internal: what the kernels of the sequence operators (and Loop/Scan, which stack slices)
// share: reading a position, slicing and joining arrays along an axis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/kernels.h"

namespace onyx::ops {

/// The single element of an INT32 or INT64 tensor (a scalar or one element); nullopt else.
inline std::optional<int64_t> singleInteger(const Array& array) {
  if (array.size() != 1) return std::nullopt;
  if (array.type() == ElementType::kInt64) return array.data<int64_t>()[0];
  if (array.type() == ElementType::kInt32) return array.data<int32_t>()[0];
  return std::nullopt;
}

/// The product of dims [begin, end) of `shape`.
inline size_t dimsProduct(const std::vector<int64_t>& shape, size_t begin, size_t end) {
  size_t product = 1;
  for (size_t i = begin; i < end && i < shape.size(); ++i) product *= static_cast<size_t>(shape[i]);
  return product;
}

/// Elements [start, start + length) of `array` along `axis` (axis < rank, the range in
/// bounds), as a new array of the same rank.
inline Array sliceAlongAxis(const Array& array, size_t axis, int64_t start, int64_t length) {
  std::vector<int64_t> shape = array.shape();
  int64_t extent = shape[axis];
  shape[axis] = length;
  Array out(array.type(), shape);
  size_t outer = dimsProduct(array.shape(), 0, axis);
  size_t inner = dimsProduct(array.shape(), axis + 1, array.rank());
  size_t block = static_cast<size_t>(length) * inner;
  if (block == 0) return out;
  for (size_t o = 0; o < outer; ++o) {
    copyElements(array, (o * static_cast<size_t>(extent) + static_cast<size_t>(start)) * inner, out,
                 o * block, block);
  }
  return out;
}

/// `parts` joined along `axis` (all of the same element type and rank, equal off the axis);
/// an error message in `error` when they are not.
inline std::optional<Array> concatAlongAxis(const std::vector<Array>& parts, size_t axis,
                                            std::string& error) {
  if (parts.empty()) {
    error = "nothing to join";
    return std::nullopt;
  }
  const Array& first = parts[0];
  if (axis >= first.rank()) {
    error = "axis out of range";
    return std::nullopt;
  }
  std::vector<int64_t> shape = first.shape();
  int64_t total = 0;
  for (size_t p = 0; p < parts.size(); ++p) {
    const Array& part = parts[p];
    if (part.type() != first.type() || part.rank() != first.rank()) {
      error = "element " + std::to_string(p) + " differs in element type or rank";
      return std::nullopt;
    }
    for (size_t d = 0; d < shape.size(); ++d) {
      if (d != axis && part.dim(d) != shape[d]) {
        error = "element " + std::to_string(p) + " differs in dimension " + std::to_string(d);
        return std::nullopt;
      }
    }
    total += part.dim(axis);
  }
  shape[axis] = total;
  Result<Array> made = Array::allocate(first.type(), shape);
  if (!made) {
    error = "the result is too large";
    return std::nullopt;
  }
  Array out = std::move(*made);
  size_t outer = dimsProduct(shape, 0, axis);
  size_t inner = dimsProduct(shape, axis + 1, shape.size());
  size_t row = static_cast<size_t>(total) * inner;
  size_t offset = 0;
  for (const Array& part : parts) {
    size_t block = static_cast<size_t>(part.dim(axis)) * inner;
    if (block != 0) {
      for (size_t o = 0; o < outer; ++o)
        copyElements(part, o * block, out, o * row + offset, block);
    }
    offset += block;
  }
  return out;
}

/// `parts` (all of one shape and element type) stacked along a new axis `axis` (<= rank).
inline std::optional<Array> stackAlongAxis(const std::vector<Array>& parts, size_t axis,
                                           std::string& error) {
  std::vector<Array> expanded;
  expanded.reserve(parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    if (parts[p].shape() != parts[0].shape()) {
      error = "element " + std::to_string(p) + " differs in shape from element 0";
      return std::nullopt;
    }
    std::vector<int64_t> shape = parts[p].shape();
    if (axis > shape.size()) {
      error = "axis out of range";
      return std::nullopt;
    }
    shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(axis), 1);
    expanded.push_back(parts[p].reshaped(std::move(shape)));
  }
  return concatAlongAxis(expanded, axis, error);
}

}  // namespace onyx::ops
