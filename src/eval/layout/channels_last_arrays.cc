#include "eval/layout/channels_last_arrays.h"

#include <cstddef>
#include <cstring>
#include <vector>

#include "onyx/core/array.h"

namespace onyx::eval_internal {

namespace {

// Moves the elements of an (N, A, B) array to (N, B, A), whatever their size.
Array swappedInner(const Array& from, std::vector<int64_t> shape, size_t batch, size_t rows,
                   size_t columns) {
  Array out(from.type(), std::move(shape));
  const size_t size = arrayElementBytes(from.type());
  const std::byte* source = from.bytes().data();
  std::byte* target = out.bytes().data();
  for (size_t b = 0; b < batch; ++b) {
    for (size_t row = 0; row < rows; ++row) {
      for (size_t column = 0; column < columns; ++column) {
        std::memcpy(target + ((b * columns + column) * rows + row) * size,
                    source + ((b * rows + row) * columns + column) * size, size);
      }
    }
  }
  return out;
}

}  // namespace

Array channelsFirst(const Array& channels_last) {
  const std::vector<int64_t>& shape = channels_last.shape();
  return swappedInner(channels_last, {shape[0], shape[3], shape[1], shape[2]},
                      static_cast<size_t>(shape[0]), static_cast<size_t>(shape[1] * shape[2]),
                      static_cast<size_t>(shape[3]));
}

Array channelsLast(const Array& channels_first) {
  const std::vector<int64_t>& shape = channels_first.shape();
  return swappedInner(channels_first, {shape[0], shape[2], shape[3], shape[1]},
                      static_cast<size_t>(shape[0]), static_cast<size_t>(shape[1]),
                      static_cast<size_t>(shape[2] * shape[3]));
}

}  // namespace onyx::eval_internal
