#include "ops/kernels.h"

#include <algorithm>
#include <cstring>

namespace onyx::ops {

std::optional<std::vector<int64_t>> broadcastShape(const std::vector<int64_t>& a,
                                                   const std::vector<int64_t>& b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

std::vector<size_t> broadcastIndices(const std::vector<int64_t>& in_shape,
                                     const std::vector<int64_t>& out_shape) {
  size_t rank = out_shape.size();
  size_t offset = rank - in_shape.size();
  // Strides of the input, 0 on axes it repeats.
  std::vector<size_t> strides(rank, 0);
  size_t stride = 1;
  for (size_t i = in_shape.size(); i-- > 0;) {
    strides[i + offset] = in_shape[i] == 1 ? 0 : stride;
    stride *= static_cast<size_t>(in_shape[i]);
  }
  size_t count = 1;
  for (int64_t dim : out_shape) count *= static_cast<size_t>(dim);
  std::vector<size_t> indices(count);
  std::vector<int64_t> position(rank, 0);
  size_t flat = 0;
  for (size_t i = 0; i < count; ++i) {
    indices[i] = flat;
    for (size_t axis = rank; axis-- > 0;) {
      ++position[axis];
      flat += strides[axis];
      if (position[axis] < out_shape[axis]) break;
      flat -= strides[axis] * static_cast<size_t>(out_shape[axis]);
      position[axis] = 0;
    }
  }
  return indices;
}

void parallelFor(const KernelContext& ctx, size_t count, size_t grain,
                 const std::function<void(size_t begin, size_t end)>& body) {
  if (count == 0) return;
  size_t threads = static_cast<size_t>(std::max(1, ctx.threads()));
  size_t parts = std::min(threads, std::max<size_t>(1, count / std::max<size_t>(grain, 1)));
  if (parts <= 1) {
    body(0, count);
    return;
  }
  size_t chunk = (count + parts - 1) / parts;
  ctx.runParts(parts, [&](size_t part) {
    size_t begin = part * chunk;
    size_t end = std::min(count, begin + chunk);
    if (begin < end) body(begin, end);
  });
}

void copyElements(const Array& from, size_t from_index, Array& to, size_t to_index, size_t count) {
  if (count == 0) return;
  if (from.isString()) {
    std::copy_n(from.strings().begin() + static_cast<std::ptrdiff_t>(from_index), count,
                to.strings().begin() + static_cast<std::ptrdiff_t>(to_index));
    return;
  }
  size_t width = arrayElementBytes(from.type());
  std::memcpy(to.bytes().data() + to_index * width, from.bytes().data() + from_index * width,
              count * width);
}

std::vector<size_t> stridesOf(const std::vector<int64_t>& shape) {
  std::vector<size_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) {
    strides[i - 1] = strides[i] * static_cast<size_t>(shape[i]);
  }
  return strides;
}

std::optional<size_t> kernelAxis(int64_t axis, size_t rank) {
  int64_t signed_rank = static_cast<int64_t>(rank);
  if (axis < -signed_rank || axis >= signed_rank) return std::nullopt;
  return static_cast<size_t>(axis < 0 ? axis + signed_rank : axis);
}

std::optional<std::vector<int64_t>> integersOf(const Array& array) {
  std::vector<int64_t> values(array.size());
  if (array.type() == ElementType::kInt64) {
    std::copy_n(array.data<int64_t>(), array.size(), values.begin());
  } else if (array.type() == ElementType::kInt32) {
    std::copy_n(array.data<int32_t>(), array.size(), values.begin());
  } else {
    return std::nullopt;
  }
  return values;
}

Array int64Array(const std::vector<int64_t>& values, std::vector<int64_t> shape) {
  Array array(ElementType::kInt64, std::move(shape));
  std::copy_n(values.begin(), std::min(values.size(), array.size()), array.data<int64_t>());
  return array;
}

}  // namespace onyx::ops
