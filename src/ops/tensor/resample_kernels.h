// Internal: Resize and Upsample's computation. Interpolation is separable: each resized axis
// in turn maps every output position to a source coordinate (the coordinate transformation
// mode), picks the n input positions nearest it (edge-clamped) and weights them (nearest,
// linear or cubic coefficients, widened by antialiasing when downsampling).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ops/lib/real_kernels.h"

namespace onyx::ops {

struct ResampleOptions {
  std::string_view mode = "nearest";  // nearest, linear, cubic
  std::string_view coordinates = "half_pixel";
  std::string_view nearest_mode = "round_prefer_floor";
  double cubic_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;
  double extrapolation = 0.0;
};

// What a Resize node asks for an input of a given shape: the output's sizes, the scale and
// (tf_crop_and_resize) the region of interest of every axis, and how to interpolate.
struct ResizeRequest {
  std::vector<int64_t> sizes;
  std::vector<double> scales;
  std::vector<double> roi;  // starts then ends, 2 * rank values; empty unless a crop
  ResampleOptions options;
};

// Reads a Resize node's inputs (roi, scales, sizes; not X) and attributes for an X of
// `shape` (resize.cc); an error names what is wrong.
Result<ResizeRequest> resizeRequest(const KernelContext& ctx, std::span<const int64_t> shape);

// The interpolation of one axis: for each output position its n source indices (clamped
// into the input) and weights, and whether it lies outside the crop (tf_crop_and_resize).
struct AxisResample {
  size_t input = 0;
  size_t output = 0;
  size_t taps = 0;
  std::vector<size_t> index;
  std::vector<double> weight;
  std::vector<char> outside;
};

inline std::vector<double> resampleCoefficients(const ResampleOptions& options, double ratio,
                                                double scale) {
  if (options.mode == "nearest") {
    if (ratio == std::floor(ratio)) return {0.0, 1.0};
    std::string_view m = options.nearest_mode;
    if (m == "round_prefer_ceil") return {ratio < 0.5 ? 1.0 : 0.0, ratio >= 0.5 ? 1.0 : 0.0};
    if (m == "floor") return {1.0, 0.0};
    if (m == "ceil") return {0.0, 1.0};
    return {ratio <= 0.5 ? 1.0 : 0.0, ratio > 0.5 ? 1.0 : 0.0};
  }
  if (options.mode == "linear") {
    if (!options.antialias) return {1.0 - ratio, ratio};
    double s = std::min(scale, 1.0);
    int64_t start = static_cast<int64_t>(std::floor(-1.0 / s)) + 1;
    int64_t footprint = 2 - 2 * start;
    std::vector<double> c(static_cast<size_t>(footprint));
    double sum = 0;
    for (int64_t i = 0; i < footprint; ++i) {
      double x = (static_cast<double>(start + i) - ratio) * s;
      c[static_cast<size_t>(i)] = std::clamp(1.0 - std::abs(x), 0.0, 1.0);
      sum += c[static_cast<size_t>(i)];
    }
    for (double& value : c) value /= sum;
    return c;
  }
  const double a = options.cubic_a;
  if (!options.antialias) {
    double r1 = ratio + 1, r = ratio, s = 1 - ratio, s1 = 2 - ratio;
    return {((a * r1 - 5 * a) * r1 + 8 * a) * r1 - 4 * a, ((a + 2) * r - (a + 3)) * r * r + 1,
            ((a + 2) * s - (a + 3)) * s * s + 1, ((a * s1 - 5 * a) * s1 + 8 * a) * s1 - 4 * a};
  }
  double s = std::min(scale, 1.0);
  int64_t start = static_cast<int64_t>(std::floor(-2.0 / s)) + 1;
  int64_t end = 2 - start;
  std::vector<double> c;
  double sum = 0;
  for (int64_t i = start; i < end; ++i) {
    double x = std::abs(s * (static_cast<double>(i) - ratio));
    double value = 0;
    if (x <= 1) {
      value = (a + 2) * x * x * x - (a + 3) * x * x + 1;
    } else if (x < 2) {
      value = a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
    }
    c.push_back(value);
    sum += value;
  }
  for (double& value : c) value /= sum;
  return c;
}

// The plan for one axis of `input` positions resized to `output` with `scale`; `roi` is the
// axis's [start, end] for tf_crop_and_resize.
inline Result<AxisResample> planAxis(const ResampleOptions& options, size_t input, size_t output,
                                     double scale, double roi_start, double roi_end) {
  AxisResample plan;
  plan.input = input;
  plan.output = output;
  if (output == 0) return plan;
  const double in = static_cast<double>(input);
  const double out_width = scale * in;
  std::string_view mode = options.coordinates;
  for (size_t o = 0; o < output; ++o) {
    const double y = static_cast<double>(o);
    double x = 0;
    bool outside = false;
    if (mode == "align_corners") {
      x = out_width == 1 ? 0.0 : y * (in - 1) / (out_width - 1);
    } else if (mode == "asymmetric") {
      x = y / scale;
    } else if (mode == "tf_crop_and_resize") {
      x = out_width == 1 ? (roi_end - roi_start) * (in - 1) / 2
                         : y * (roi_end - roi_start) * (in - 1) / (out_width - 1);
      x += roi_start * (in - 1);
      outside = x < 0 || x > in - 1;
    } else if (mode == "pytorch_half_pixel") {
      x = out_width == 1 ? -0.5 : (y + 0.5) / scale - 0.5;
    } else if (mode == "half_pixel") {
      x = (y + 0.5) / scale - 0.5;
    } else if (mode == "half_pixel_symmetric") {
      double adjustment = static_cast<double>(output) / out_width;
      double offset = in / 2 * (1 - adjustment);
      x = offset + (y + 0.5) / scale - 0.5;
    } else {
      return Status(ErrorCode::kInvalidArgument,
                    "unknown coordinate_transformation_mode \"" + std::string(mode) + "\"");
    }
    if (!std::isfinite(x)) {
      x = 0;
      outside = outside || mode == "tf_crop_and_resize";
    }
    double floor_x = std::floor(x);
    double ratio = x == floor_x ? 1.0 : x - floor_x;
    std::vector<double> c = resampleCoefficients(options, ratio, scale);
    size_t n = c.size();
    // Far outside the input every tap clamps to the same edge: bound x so the index
    // arithmetic stays in range.
    const double bound = in + static_cast<double>(n) + 8;
    x = std::clamp(x, -bound, bound);
    if (o == 0) {
      plan.taps = n;
      plan.index.resize(output * n);
      plan.weight.resize(output * n);
      plan.outside.resize(output);
    } else if (n != plan.taps) {
      return Status(ErrorCode::kInvalidArgument, "inconsistent interpolation footprint");
    }
    int64_t pad = static_cast<int64_t>((n + 1) / 2);
    double padded = x + static_cast<double>(pad);
    double p = std::floor(padded);
    double frac = padded - p;
    int64_t half = static_cast<int64_t>(n / 2);
    int64_t offset = 0;
    if (n % 2 == 0) {
      offset = frac == 0 ? -half : -half + 1;
    } else {
      int64_t base = -static_cast<int64_t>((n - 1) / 2);
      offset = frac <= 0.5 ? base : base + 1;
    }
    int64_t start = static_cast<int64_t>(p) + offset - pad;
    if (options.exclude_outside) {
      double sum = 0;
      for (size_t k = 0; k < n; ++k) {
        int64_t idx = start + static_cast<int64_t>(k);
        if (idx < 0 || idx >= static_cast<int64_t>(input)) c[k] = 0;
        sum += c[k];
      }
      if (sum == 0) sum = 1;
      for (double& value : c) value /= sum;
    }
    for (size_t k = 0; k < n; ++k) {
      int64_t idx =
          std::clamp<int64_t>(start + static_cast<int64_t>(k), 0, static_cast<int64_t>(input) - 1);
      plan.index[o * n + k] = static_cast<size_t>(std::max<int64_t>(idx, 0));
      plan.weight[o * n + k] = c[k];
    }
    plan.outside[o] = outside ? 1 : 0;
  }
  return plan;
}

// Applies `plan` along `axis` of `values` (shape `shape`, updated).
inline std::vector<double> applyAxis(const KernelContext& ctx, const std::vector<double>& values,
                                     std::vector<int64_t>& shape, size_t axis,
                                     const AxisResample& plan, double extrapolation) {
  size_t outer = productOf(shape, 0, axis);
  size_t inner = productOf(shape, axis + 1, shape.size());
  std::vector<double> out(outer * plan.output * inner);
  if (plan.input == 0 && plan.output > 0) {
    std::fill(out.begin(), out.end(), 0.0);
  } else {
    parallelFor(ctx, outer, 1, [&](size_t begin, size_t end) {
      for (size_t a = begin; a < end; ++a) {
        const double* from = values.data() + a * plan.input * inner;
        double* to = out.data() + a * plan.output * inner;
        for (size_t o = 0; o < plan.output; ++o) {
          double* row = to + o * inner;
          if (plan.outside[o]) {
            std::fill(row, row + inner, extrapolation);
            continue;
          }
          std::fill(row, row + inner, 0.0);
          for (size_t k = 0; k < plan.taps; ++k) {
            double w = plan.weight[o * plan.taps + k];
            const double* source = from + plan.index[o * plan.taps + k] * inner;
            for (size_t i = 0; i < inner; ++i) row[i] += w * source[i];
          }
        }
      }
    });
  }
  shape[axis] = static_cast<int64_t>(plan.output);
  return out;
}

// The source index of each output position of a nearest plan (its tap of weight 1), or
// kOutsideCrop where it lies outside the crop; nullopt when a position has no such tap
// (exclude_outside dropped it), which the general path then computes.
inline constexpr size_t kOutsideCrop = SIZE_MAX;
inline std::optional<std::vector<size_t>> nearestSources(const AxisResample& plan) {
  std::vector<size_t> sources(plan.output);
  for (size_t o = 0; o < plan.output; ++o) {
    if (plan.outside[o]) {
      sources[o] = kOutsideCrop;
      continue;
    }
    size_t chosen = kOutsideCrop;
    for (size_t k = 0; k < plan.taps; ++k) {
      double w = plan.weight[o * plan.taps + k];
      if (w == 1.0 && chosen == kOutsideCrop) {
        chosen = plan.index[o * plan.taps + k];
      } else if (w != 0.0) {
        return std::nullopt;
      }
    }
    if (chosen == kOutsideCrop) return std::nullopt;
    sources[o] = chosen;
  }
  return sources;
}

// The resize of FLOAT `x` whose changing axes are among its last two: planes of `height` x
// `width` (the leading axes kept), each row, column or both resampled by the same plans as
// the general path (null: the axis is kept). Nearest copies the chosen element (with
// `sources` per axis); the other modes compute in double in the general path's order (rows
// first, each output the sum of its taps from 0), so they give its values, without a copy of
// the whole tensor in double.
struct FloatPlanes {
  size_t planes = 0;
  size_t height = 0;
  size_t width = 0;
  const AxisResample* rows = nullptr;
  const AxisResample* columns = nullptr;
};

inline void resampleFloatPlanes(const KernelContext& ctx, const FloatPlanes& p, const float* in,
                                float* out, const std::vector<size_t>* row_sources,
                                const std::vector<size_t>* column_sources, double extrapolation) {
  const size_t out_height = p.rows != nullptr ? p.rows->output : p.height;
  const size_t out_width = p.columns != nullptr ? p.columns->output : p.width;
  const float outside = static_cast<float>(extrapolation);
  const bool nearest = row_sources != nullptr || column_sources != nullptr;
  parallelFor(
      ctx, p.planes * out_height, std::max<size_t>(1, (size_t{1} << 14) / out_width),
      [&](size_t begin, size_t end) {
        std::vector<double> mid(nearest ? 0 : p.width);
        for (size_t item = begin; item < end; ++item) {
          const size_t plane = item / out_height;
          const size_t oy = item % out_height;
          const float* image = in + plane * p.height * p.width;
          float* target = out + item * out_width;
          if (nearest) {
            const size_t y = row_sources != nullptr ? (*row_sources)[oy] : oy;
            if (y == kOutsideCrop) {
              std::fill(target, target + out_width, outside);
              continue;
            }
            // Rows repeated by upsampling are copies of the row above.
            if (row_sources != nullptr && item > begin && oy > 0 && (*row_sources)[oy - 1] == y) {
              std::copy_n(target - out_width, out_width, target);
              continue;
            }
            const float* line = image + y * p.width;
            if (column_sources == nullptr) {
              std::copy_n(line, out_width, target);
              continue;
            }
            for (size_t ox = 0; ox < out_width; ++ox) {
              const size_t x = (*column_sources)[ox];
              target[ox] = x == kOutsideCrop ? outside : line[x];
            }
            continue;
          }
          if (p.rows == nullptr) {
            const float* line = image + oy * p.width;
            for (size_t x = 0; x < p.width; ++x) mid[x] = line[x];
          } else if (p.rows->outside[oy]) {
            std::fill(mid.begin(), mid.end(), extrapolation);
          } else {
            std::fill(mid.begin(), mid.end(), 0.0);
            for (size_t k = 0; k < p.rows->taps; ++k) {
              const double w = p.rows->weight[oy * p.rows->taps + k];
              const float* line = image + p.rows->index[oy * p.rows->taps + k] * p.width;
              for (size_t x = 0; x < p.width; ++x) mid[x] += w * line[x];
            }
          }
          if (p.columns == nullptr) {
            for (size_t x = 0; x < p.width; ++x) target[x] = static_cast<float>(mid[x]);
            continue;
          }
          const size_t taps = p.columns->taps;
          for (size_t ox = 0; ox < out_width; ++ox) {
            if (p.columns->outside[ox]) {
              target[ox] = outside;
              continue;
            }
            double sum = 0;
            for (size_t k = 0; k < taps; ++k) {
              sum += p.columns->weight[ox * taps + k] * mid[p.columns->index[ox * taps + k]];
            }
            target[ox] = static_cast<float>(sum);
          }
        }
      });
}

// Bilinear resize of FLOAT planes (the last two axes of a 2-D input, or of an NCHW one whose
// N and C are kept), computed in float in onnxruntime's order, so that a quantized model that
// re-quantizes after a Resize does not see a one-ulp seed grow (both orders are within the
// spec's rounding; the separable double path rounds once, this one as onnxruntime does):
// the source coordinate in float by the coordinate transformation mode (an axis of scale 1
// maps to itself), clamped into [0, size - 1]; taps i1 = its floor, i2 = i1 + 1 (both the
// last index at the edge, each weighed 1/2 then); weights d1 = |x - i1|, d2 = |x - i2|; and
// y = d2x d2y X11 + d1x d2y X21 + d2x d1y X12 + d1x d1y X22, summed left to right.
struct BilinearTaps {
  std::vector<size_t> first, second;
  std::vector<float> near_weight, far_weight;  // of the first tap, of the second
};

// The taps of one axis, or nullopt for a mode this path does not take.
inline std::optional<BilinearTaps> bilinearTaps(std::string_view mode, size_t input, size_t output,
                                                double scale) {
  BilinearTaps taps;
  // The resized length is the input's times the scale (not the output's size, which is
  // rounded down), as the spec says and the double path has it.
  const float in = static_cast<float>(input), s = static_cast<float>(scale), out = s * in;
  for (size_t o = 0; o < output; ++o) {
    const float y = static_cast<float>(o);
    float x = y;
    if (s != 1.0f) {
      if (mode == "half_pixel") {
        x = ((y + 0.5f) / s) - 0.5f;
      } else if (mode == "asymmetric") {
        x = y / s;
      } else if (mode == "pytorch_half_pixel") {
        x = out > 1 ? (y + 0.5f) / s - 0.5f : 0.0f;
      } else if (mode == "align_corners") {
        x = out == 1 ? 0.0f : y * (in - 1) / (out - 1);
      } else {
        return std::nullopt;
      }
    }
    if (!std::isfinite(x)) return std::nullopt;
    x = std::max(0.0f, std::min(x, in - 1));
    const size_t i1 = std::min(static_cast<size_t>(x), input - 1);
    const size_t i2 = std::min(i1 + 1, input - 1);
    float d1 = std::fabs(x - static_cast<float>(i1));
    float d2 = std::fabs(x - static_cast<float>(i2));
    if (i1 == i2) d1 = d2 = 0.5f;
    taps.first.push_back(i1);
    taps.second.push_back(i2);
    // The first tap is weighed by the distance to the second, and the other way round.
    taps.near_weight.push_back(d2);
    taps.far_weight.push_back(d1);
  }
  return taps;
}

// `planes` planes of `height` x `width` to `out_height` x `out_width`; false (nothing
// written) for a mode the path does not take.
inline bool resampleBilinearFloat(const KernelContext& ctx, std::string_view mode, size_t planes,
                                  size_t height, size_t width, size_t out_height, size_t out_width,
                                  double row_scale, double column_scale, const float* in,
                                  float* out) {
  std::optional<BilinearTaps> rows = bilinearTaps(mode, height, out_height, row_scale);
  std::optional<BilinearTaps> columns = bilinearTaps(mode, width, out_width, column_scale);
  if (!rows || !columns) return false;
  parallelFor(ctx, planes * out_height, std::max<size_t>(1, (size_t{1} << 14) / out_width),
              [&](size_t begin, size_t end) {
                for (size_t item = begin; item < end; ++item) {
                  const size_t plane = item / out_height, oy = item % out_height;
                  const float* image = in + plane * height * width;
                  const float* line1 = image + rows->first[oy] * width;
                  const float* line2 = image + rows->second[oy] * width;
                  const float dy2 = rows->near_weight[oy], dy1 = rows->far_weight[oy];
                  float* target = out + item * out_width;
                  for (size_t ox = 0; ox < out_width; ++ox) {
                    const size_t x1 = columns->first[ox], x2 = columns->second[ox];
                    const float dx2 = columns->near_weight[ox], dx1 = columns->far_weight[ox];
                    target[ox] = dx2 * dy2 * line1[x1] + dx1 * dy2 * line1[x2] +
                                 dx2 * dy1 * line2[x1] + dx1 * dy1 * line2[x2];
                  }
                }
              });
  return true;
}

// The crop along `axis` of a resize of rank roi.size() / 2 (the whole axis when roi is empty).
inline double roiStart(const std::vector<double>& roi, size_t axis) {
  return roi.empty() ? 0.0 : roi[axis];
}
inline double roiEnd(const std::vector<double>& roi, size_t axis) {
  return roi.empty() ? 1.0 : roi[axis + roi.size() / 2];
}

// Whether a resize of an input of `shape` to `sizes` leaves `axis` as it is: scale 1, the
// same size, no crop.
inline bool axisKept(std::span<const int64_t> shape, const std::vector<int64_t>& sizes,
                     const std::vector<double>& scales, const std::vector<double>& roi,
                     size_t axis) {
  return std::abs(scales[axis] - 1.0) <= 1e-9 && sizes[axis] == shape[axis] &&
         std::abs(roiStart(roi, axis)) <= 1e-9 && std::abs(roiEnd(roi, axis) - 1.0) <= 1e-9;
}

// Resizes `x` along every axis to `sizes` with `scales` (one per axis of x); `roi` holds
// 2 * rank values (starts then ends) or is empty.
inline Result<Array> resample(const KernelContext& ctx, const Array& x,
                              const std::vector<int64_t>& sizes, const std::vector<double>& scales,
                              const std::vector<double>& roi, const ResampleOptions& options) {
  const size_t rank = x.rank();
  Result<Array> made = Array::allocate(x.type(), sizes);
  if (!made) return made.status();
  // Bilinear in onnxruntime's order where onnxruntime computes it so: a 2-D input, or an
  // NCHW one whose N and C are kept (before the per-axis plans, which it does not use).
  if (x.type() == ElementType::kFloat && options.mode == "linear" && !options.antialias &&
      !options.exclude_outside &&
      (rank == 2 || (rank == 4 && axisKept(x.shape(), sizes, scales, roi, 0) &&
                     axisKept(x.shape(), sizes, scales, roi, 1))) &&
      x.size() > 0 && made->size() > 0 &&
      resampleBilinearFloat(ctx, options.coordinates,
                            x.size() / size_t(x.dim(rank - 2) * x.dim(rank - 1)),
                            size_t(x.dim(rank - 2)), size_t(x.dim(rank - 1)),
                            size_t(sizes[rank - 2]), size_t(sizes[rank - 1]), scales[rank - 2],
                            scales[rank - 1], x.data<float>(), made->data<float>())) {
    return std::move(*made);
  }
  // The plan of each axis that changes (the others are skipped).
  std::vector<std::optional<AxisResample>> plans(rank);
  bool leading_change = false;
  for (size_t axis = 0; axis < rank; ++axis) {
    if (axisKept(x.shape(), sizes, scales, roi, axis)) continue;
    Result<AxisResample> plan =
        planAxis(options, static_cast<size_t>(x.dim(axis)), static_cast<size_t>(sizes[axis]),
                 scales[axis], roiStart(roi, axis), roiEnd(roi, axis));
    if (!plan) return plan.status();
    plans[axis] = std::move(*plan);
    leading_change = leading_change || axis + 2 < rank;
  }
  if (x.type() == ElementType::kFloat && rank > 0 && !leading_change && x.size() > 0 &&
      made->size() > 0) {
    FloatPlanes p;
    p.width = static_cast<size_t>(x.dim(rank - 1));
    p.height = rank >= 2 ? static_cast<size_t>(x.dim(rank - 2)) : 1;
    p.planes = x.size() / (p.width * p.height);
    p.columns = plans[rank - 1] ? &*plans[rank - 1] : nullptr;
    p.rows = rank >= 2 && plans[rank - 2] ? &*plans[rank - 2] : nullptr;
    std::optional<std::vector<size_t>> row_sources;
    std::optional<std::vector<size_t>> column_sources;
    bool gather = options.mode == "nearest";
    if (gather && p.rows != nullptr) {
      row_sources = nearestSources(*p.rows);
      gather = row_sources.has_value();
    }
    if (gather && p.columns != nullptr) {
      column_sources = nearestSources(*p.columns);
      gather = column_sources.has_value();
    }
    if (gather || options.mode != "nearest") {
      resampleFloatPlanes(ctx, p, x.data<float>(), made->data<float>(),
                          gather && row_sources ? &*row_sources : nullptr,
                          gather && column_sources ? &*column_sources : nullptr,
                          options.extrapolation);
      return std::move(*made);
    }
  }
  std::vector<double> values = realsOf(x);
  std::vector<int64_t> shape = x.shape();
  for (size_t axis = 0; axis < rank; ++axis) {
    if (plans[axis]) {
      values = applyAxis(ctx, values, shape, axis, *plans[axis], options.extrapolation);
    }
  }
  if (!isRealType(x.type())) {
    for (double& value : values) value = std::nearbyint(value);
  }
  return arrayOfReals(values, sizes, x.type());
}

}  // namespace onyx::ops
