// Internal: LayerNormalization and RMSNormalization of FLOAT rows, the common case of the
// normalizations over trailing axes (real_kernels.h's trailingNormalization falls back to its
// general path for everything else).
//
// X is FLOAT or a narrow floating type widened to FLOAT; Scale and B are too and vary only
// along the normalized axes, so each is one row of `columns` values. Each row's mean and
// variance are accumulated in double in a fixed order, and each element is computed in double
// as the general path does and rounded once, so the results differ from it only in the
// rounding of the sums and never depend on the thread count. Nothing of X's size is
// allocated besides the output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ops/kernels.h"

namespace onyx::ops {

/// Whether an array of `type` takes the FLOAT row path: FLOAT, or a narrow floating type that
/// widens to FLOAT exactly.
inline bool isFloatRowType(ElementType type) {
  return type == ElementType::kFloat || isNarrowFloat(type);
}

/// The values of an affine parameter (Scale, B) for one row of the normalized axes [axis,
/// rank) of `x_shape`, as floats; nullopt when the parameter does not take the FLOAT row path
/// or varies along an axis before `axis`. The parameter must broadcast to `x_shape`.
inline std::optional<std::vector<float>> rowParameter(const Array& parameter,
                                                      const std::vector<int64_t>& x_shape,
                                                      size_t axis) {
  const std::vector<int64_t>& shape = parameter.shape();
  if (!isFloatRowType(parameter.type()) || shape.size() > x_shape.size()) return std::nullopt;
  const size_t offset = x_shape.size() - shape.size();
  for (size_t i = 0; i < shape.size() && offset + i < axis; ++i) {
    if (shape[i] != 1) return std::nullopt;
  }
  const size_t first = axis > offset ? axis - offset : 0;
  std::vector<int64_t> row_shape(shape.begin() + static_cast<std::ptrdiff_t>(first), shape.end());
  std::vector<int64_t> x_row_shape(x_shape.begin() + static_cast<std::ptrdiff_t>(axis),
                                   x_shape.end());
  const Array wide = widenToFloat(parameter);
  const float* from = wide.data<float>();
  std::vector<float> values;
  if (row_shape == x_row_shape) {
    values.assign(from, from + wide.size());
  } else {
    std::vector<size_t> indices = broadcastIndices(row_shape, x_row_shape);
    values.resize(indices.size());
    for (size_t c = 0; c < indices.size(); ++c) values[c] = from[indices[c]];
  }
  return values;
}

/// Normalizes one row of `columns` elements, `from` into `to` (see normalizeFloatRows), and
/// returns its mean and inverse standard deviation.
struct RowMoments {
  double mean;
  double inverse_deviation;
};
RowMoments normalizeFloatRow(const float* from, float* to, size_t columns, const float* scale,
                             const float* bias, double epsilon, bool rms);

/// The statistics a row normalization leaves per row.
struct RowStatistics {
  std::vector<double> means;
  std::vector<double> inverse_deviations;
};

/// Y = (X - mean) / sqrt(var + epsilon) * scale (+ bias) for `x` (FLOAT) as `rows` rows of
/// `columns` elements, into `y` (FLOAT, x's shape); `rms` leaves out the mean. `bias` may be
/// null.
inline RowStatistics normalizeFloatRows(const KernelContext& ctx, const Array& x, Array& y,
                                        size_t rows, size_t columns, const float* scale,
                                        const float* bias, double epsilon, bool rms) {
  RowStatistics statistics{std::vector<double>(rows), std::vector<double>(rows)};
  const float* in = x.data<float>();
  float* out = y.data<float>();
  parallelFor(ctx, rows, 16, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      RowMoments moments = normalizeFloatRow(in + r * columns, out + r * columns, columns, scale,
                                             bias, epsilon, rms);
      statistics.means[r] = moments.mean;
      statistics.inverse_deviations[r] = moments.inverse_deviation;
    }
  });
  return statistics;
}

}  // namespace onyx::ops
