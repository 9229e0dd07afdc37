#include "ops/lib/row_normalization.h"

#include <cmath>

#include "ops/wider_vectors.h"

namespace onyx::ops {

namespace {

// The sum of (values[i] - shift), or of its squares, over [0, count) in double: eight
// interleaved partial sums added in a fixed order at the end, independent additions the
// compiler can vectorize without changing the result.
inline double rowSum(const float* __restrict values, size_t count, double shift, bool squares) {
  constexpr size_t kLanes = 8;
  double lanes[kLanes] = {};
  size_t c = 0;
  for (; c + kLanes <= count; c += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) {
      double d = static_cast<double>(values[c + j]) - shift;
      lanes[j] += squares ? d * d : d;
    }
  }
  double total = 0;
  for (size_t j = 0; j < kLanes; ++j) total += lanes[j];
  for (; c < count; ++c) {
    double d = static_cast<double>(values[c]) - shift;
    total += squares ? d * d : d;
  }
  return total;
}

}  // namespace

ONYX_WIDER_VECTORS RowMoments normalizeFloatRow(const float* __restrict from, float* __restrict to,
                                                size_t columns, const float* __restrict scale,
                                                const float* __restrict bias, double epsilon,
                                                bool rms) {
  const double count = static_cast<double>(columns);
  const double mean = rms ? 0.0 : rowSum(from, columns, 0.0, false) / count;
  const double variance = rowSum(from, columns, mean, true) / count;
  const double inverse = 1.0 / std::sqrt(variance + epsilon);
  if (bias != nullptr) {
    for (size_t c = 0; c < columns; ++c) {
      to[c] = static_cast<float>((static_cast<double>(from[c]) - mean) * inverse *
                                     static_cast<double>(scale[c]) +
                                 static_cast<double>(bias[c]));
    }
  } else {
    for (size_t c = 0; c < columns; ++c) {
      to[c] = static_cast<float>((static_cast<double>(from[c]) - mean) * inverse *
                                 static_cast<double>(scale[c]));
    }
  }
  return {mean, inverse};
}

}  // namespace onyx::ops
