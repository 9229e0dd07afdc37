// Internal: what the normalization, attention, resampling and detection kernels share.
// They compute in double whatever the floating-point element type (FLOAT16, BFLOAT16 and the
// FLOAT8 types are widened on the way in and rounded to nearest even on the way out).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/kernels.h"
#include "ops/lib/row_normalization.h"

namespace onyx::ops {

/// Whether `type` is a floating-point type these kernels compute on.
inline bool isRealType(ElementType type) {
  return type == ElementType::kFloat || type == ElementType::kDouble || isNarrowFloat(type);
}

/// The elements of a numeric array as doubles.
inline std::vector<double> realsOf(const Array& array) {
  std::vector<double> out(array.size());
  if (array.type() == ElementType::kDouble) {
    const double* in = array.data<double>();
    std::copy(in, in + array.size(), out.begin());
  } else if (array.type() == ElementType::kFloat || isNarrowFloat(array.type())) {
    Array wide = widenToFloat(array);
    const float* in = wide.data<float>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = in[i];
  } else {
    for (size_t i = 0; i < out.size(); ++i) out[i] = elementAsDouble(array, i);
  }
  return out;
}

/// An array of `type` and `shape` holding `values` (rounded to the type).
inline Array arrayOfReals(const std::vector<double>& values, std::vector<int64_t> shape,
                          ElementType type) {
  if (type == ElementType::kDouble) {
    Array out(type, std::move(shape));
    std::copy(values.begin(), values.end(), out.data<double>());
    return out;
  }
  if (type == ElementType::kFloat || isNarrowFloat(type)) {
    Array out(ElementType::kFloat, std::move(shape));
    float* data = out.data<float>();
    for (size_t i = 0; i < values.size(); ++i) data[i] = static_cast<float>(values[i]);
    return narrowFromFloat(out, type);
  }
  Array out(type, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) storeDouble(out, i, values[i]);
  return out;
}

/// The product of the element counts of `shape[begin, end)`.
inline size_t productOf(const std::vector<int64_t>& shape, size_t begin, size_t end) {
  size_t product = 1;
  for (size_t i = begin; i < end && i < shape.size(); ++i) product *= static_cast<size_t>(shape[i]);
  return product;
}

}  // namespace onyx::ops

namespace onyx::ops {

/// Whether `parameter` broadcasts to exactly `shape`.
inline bool broadcastsTo(const Array& parameter, const std::vector<int64_t>& shape) {
  std::optional<std::vector<int64_t>> joint = broadcastShape(parameter.shape(), shape);
  return joint && *joint == shape;
}

/// trailingNormalization in double for any element types and parameter broadcasts: `x` as
/// `rows` rows of `columns`; sets output 0 and fills the statistics per row.
inline void generalTrailingNormalization(KernelContext& ctx, const Array& x, const Array& scale,
                                         const Array* bias, size_t rows, size_t columns,
                                         double epsilon, bool rms, std::vector<double>& means,
                                         std::vector<double>& inverses) {
  const std::vector<size_t> scale_index = broadcastIndices(scale.shape(), x.shape());
  const std::vector<size_t> bias_index =
      bias != nullptr ? broadcastIndices(bias->shape(), x.shape()) : std::vector<size_t>();
  std::vector<double> in = realsOf(x);
  std::vector<double> w = realsOf(scale);
  std::vector<double> b = bias != nullptr ? realsOf(*bias) : std::vector<double>();
  std::vector<double> out(in.size());
  means.assign(rows, 0.0);
  inverses.assign(rows, 0.0);
  parallelFor(ctx, rows, 16, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const double* row = in.data() + r * columns;
      double mean = 0;
      if (!rms) {
        for (size_t c = 0; c < columns; ++c) mean += row[c];
        mean /= static_cast<double>(columns);
      }
      double variance = 0;
      for (size_t c = 0; c < columns; ++c) variance += (row[c] - mean) * (row[c] - mean);
      variance /= static_cast<double>(columns);
      double inverse = 1.0 / std::sqrt(variance + epsilon);
      means[r] = mean;
      inverses[r] = inverse;
      for (size_t c = 0; c < columns; ++c) {
        size_t i = r * columns + c;
        double value = (row[c] - mean) * inverse * w[scale_index[i]];
        if (bias != nullptr) value += b[bias_index[i]];
        out[i] = value;
      }
    }
  });
  ctx.setOutput(0, arrayOfReals(out, x.shape(), x.type()));
}

/// LayerNormalization and RMSNormalization over the trailing axes from `axis`: `rms` leaves
/// out the mean. Y = (x - mean) / sqrt(var + epsilon) * scale (+ bias); the statistics
/// (mean, inverse standard deviation) per leading index when asked for.
inline Status trailingNormalization(KernelContext& ctx, bool rms) {
  const Array* x = ctx.inputArray(0);
  const Array* scale = ctx.inputArray(1);
  const Array* bias = rms ? nullptr : ctx.inputArray(2);
  if (x == nullptr || scale == nullptr) return ctx.fail("needs X and Scale tensors");
  if (!isRealType(x->type())) return ctx.fail("X must be a floating-point tensor");
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(-1), x->rank());
  if (!axis) return ctx.fail("axis is out of range for X of rank " + std::to_string(x->rank()));
  double epsilon = ctx.floatAttribute("epsilon").value_or(1e-5f);
  if (!broadcastsTo(*scale, x->shape())) {
    return ctx.fail("Scale " + shapeText(scale->shape()) + " does not broadcast to X " +
                    shapeText(x->shape()));
  }
  if (bias != nullptr && !broadcastsTo(*bias, x->shape())) {
    return ctx.fail("B " + shapeText(bias->shape()) + " does not broadcast to X " +
                    shapeText(x->shape()));
  }
  size_t rows = productOf(x->shape(), 0, *axis);
  size_t columns = productOf(x->shape(), *axis, x->rank());
  std::vector<double> means;
  std::vector<double> inverses;
  std::optional<std::vector<float>> scale_row;
  std::optional<std::vector<float>> bias_row;
  if (isFloatRowType(x->type())) {
    scale_row = rowParameter(*scale, x->shape(), *axis);
    if (bias != nullptr) bias_row = rowParameter(*bias, x->shape(), *axis);
  }
  if (scale_row && (bias == nullptr || bias_row)) {
    Array wide = widenToFloat(*x);
    Array y(ElementType::kFloat, x->shape());
    RowStatistics statistics =
        normalizeFloatRows(ctx, wide, y, rows, columns, scale_row->data(),
                           bias_row ? bias_row->data() : nullptr, epsilon, rms);
    ctx.setOutput(0, narrowFromFloat(y, x->type()));
    means = std::move(statistics.means);
    inverses = std::move(statistics.inverse_deviations);
  } else {
    generalTrailingNormalization(ctx, *x, *scale, bias, rows, columns, epsilon, rms, means,
                                 inverses);
  }
  std::vector<int64_t> statistics_shape(x->shape().begin(),
                                        x->shape().begin() + static_cast<std::ptrdiff_t>(*axis));
  statistics_shape.resize(x->rank(), 1);
  int64_t stash = ctx.intAttribute("stash_type").value_or(1);
  ElementType statistics_type = stash == 16
                                    ? ElementType::kBfloat16
                                    : (stash == 11 ? ElementType::kDouble : ElementType::kFloat);
  if (ctx.hasOutput(1)) ctx.setOutput(1, arrayOfReals(means, statistics_shape, statistics_type));
  if (ctx.hasOutput(2)) {
    ctx.setOutput(2, arrayOfReals(inverses, statistics_shape, statistics_type));
  }
  return Status::ok();
}

}  // namespace onyx::ops

namespace onyx::ops {

/// X (N, C, D...) normalized per (n, group of `group_channels` channels) over the group's
/// channels and D: y = (x - mean) / sqrt(var + epsilon) * scale[p] + bias[p], p the channel
/// (or the group when `per_group`). InstanceNormalization is groups of one channel.
inline Status groupNormalization(KernelContext& ctx, const Array& x, const Array& scale,
                                 const Array& bias, size_t groups, bool per_group, double epsilon) {
  if (!isRealType(x.type())) return ctx.fail("X must be a floating-point tensor");
  if (x.rank() < 2) return ctx.fail("X must have rank 2 or more");
  const size_t batch = static_cast<size_t>(x.dim(0));
  const size_t channels = static_cast<size_t>(x.dim(1));
  if (groups == 0 || channels % groups != 0) {
    return ctx.fail("the " + std::to_string(channels) + " channels do not split into " +
                    std::to_string(groups) + " groups");
  }
  const size_t parameters = per_group ? groups : channels;
  if (scale.size() != parameters || bias.size() != parameters) {
    return ctx.fail("scale and bias must hold " + std::to_string(parameters) + " values");
  }
  const size_t spatial = productOf(x.shape(), 2, x.rank());
  const size_t group_channels = channels / groups;
  const size_t block = group_channels * spatial;
  const std::vector<double> in = realsOf(x);
  const std::vector<double> w = realsOf(scale);
  const std::vector<double> b = realsOf(bias);
  std::vector<double> out(in.size());
  parallelFor(ctx, batch * groups, 1, [&](size_t begin, size_t end) {
    for (size_t item = begin; item < end; ++item) {
      const double* from = in.data() + item * block;
      double* to = out.data() + item * block;
      double mean = 0;
      for (size_t i = 0; i < block; ++i) mean += from[i];
      mean /= static_cast<double>(block);
      double variance = 0;
      for (size_t i = 0; i < block; ++i) variance += (from[i] - mean) * (from[i] - mean);
      variance /= static_cast<double>(block);
      const double inverse = 1.0 / std::sqrt(variance + epsilon);
      const size_t group = item % groups;
      for (size_t c = 0; c < group_channels; ++c) {
        const size_t p = per_group ? group : group * group_channels + c;
        for (size_t i = 0; i < spatial; ++i) {
          size_t at = c * spatial + i;
          to[at] = (from[at] - mean) * inverse * w[p] + b[p];
        }
      }
    }
  });
  ctx.setOutput(0, arrayOfReals(out, x.shape(), x.type()));
  return Status::ok();
}

}  // namespace onyx::ops

namespace onyx::ops {

/// c (n x m) = a (n x k) times b (k x m), or times b^T when b is given as (m x k). Every matrix
/// product of the attention kernels (Attention, FlexAttention) goes through here, so a faster
/// product (BLAS) replaces this one function.
inline void attentionProduct(const double* a, const double* b, double* c, size_t n, size_t k,
                             size_t m, bool b_transposed) {
  if (b_transposed) {
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < m; ++j) {
        double sum = 0;
        for (size_t p = 0; p < k; ++p) sum += a[i * k + p] * b[j * k + p];
        c[i * m + j] = sum;
      }
    }
    return;
  }
  std::fill(c, c + n * m, 0.0);
  for (size_t i = 0; i < n; ++i) {
    for (size_t p = 0; p < k; ++p) {
      double factor = a[i * k + p];
      for (size_t j = 0; j < m; ++j) c[i * m + j] += factor * b[p * m + j];
    }
  }
}

}  // namespace onyx::ops
