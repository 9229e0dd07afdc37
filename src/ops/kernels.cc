#include "ops/kernels.h"

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

}  // namespace onyx::ops
