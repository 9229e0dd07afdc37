// GridSample (ai.onnx), versions 16, 20, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>

#include "onyx/core/element_type.h"
#include "onyx/ir/attribute.h"
#include "ops/lib/real_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// X [N, C, D1..Dk] sampled at grid [N, O1..Ok, k] gives [N, C, O1..Ok]; version 16 is 2-D
// only.
void inferGridSample(InferenceContext& ctx) {
  const Dims* x = ctx.inputShape(0);
  const Dims* grid = ctx.inputShape(1);
  if (x == nullptr || grid == nullptr) return;
  if (x->size() < 3 || grid->size() != x->size()) {
    ctx.fail("GridSample's input has rank " + std::to_string(x->size()) + " and its grid rank " +
             std::to_string(grid->size()) + "; they must be equal and at least 3");
    return;
  }
  DimValue coordinates = grid->back();
  auto spatial = static_cast<int64_t>(x->size() - 2);
  if (coordinates.isKnown() && coordinates.value() != spatial) {
    ctx.fail("GridSample's grid has " + std::to_string(coordinates.value()) +
             " coordinates per point for " + std::to_string(spatial) + " spatial axes");
    return;
  }
  DimValue batch = (*x)[0];
  DimValue grid_batch = (*grid)[0];
  if (batch.isKnown() && grid_batch.isKnown() && batch.value() != grid_batch.value()) {
    ctx.fail("GridSample's input has batch " + std::to_string(batch.value()) + " and grid " +
             std::to_string(grid_batch.value()));
    return;
  }
  Dims out = {batch.isKnown() ? batch : grid_batch, (*x)[1]};
  out.insert(out.end(), grid->begin() + 1, grid->end() - 1);
  ctx.setOutputShape(0, std::move(out));
}

// Reflects `x` into [low, high] by folding at the borders.
double reflectInto(double x, double low, double high) {
  double range = high - low;
  if (range <= 0) return low;
  if (x < low) {
    double dx = low - x;
    double n = std::floor(dx / range);
    double r = dx - n * range;
    return std::fmod(n, 2.0) == 0 ? low + r : high - r;
  }
  if (x > high) {
    double dx = x - high;
    double n = std::floor(dx / range);
    double r = dx - n * range;
    return std::fmod(n, 2.0) == 0 ? high - r : low + r;
  }
  return x;
}

double cubicWeight(double x, int tap) {
  const double a = -0.75;
  switch (tap) {
    case 0: return ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
    case 1: return ((a + 2) * x - (a + 3)) * x * x + 1;
    case 2: return ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
    default: return ((a * (2 - x) - 5 * a) * (2 - x) + 8 * a) * (2 - x) - 4 * a;
  }
}

enum class GridMode { kNearest, kLinear, kCubic };
enum class GridPadding { kZeros, kBorder, kReflection };

// Where integer position `i` of an axis of `size` reads, or -1 for a zero (padding).
int64_t gridPixel(int64_t i, int64_t size, GridPadding padding, double low, double high) {
  if (padding == GridPadding::kZeros) return i >= 0 && i < size ? i : -1;
  if (padding == GridPadding::kBorder) return std::clamp<int64_t>(i, 0, size - 1);
  double r = reflectInto(static_cast<double>(i), low, high);
  return std::clamp<int64_t>(static_cast<int64_t>(r), 0, size - 1);
}

// Samples X (N, C, D1..Dk) at grid (N, O1..Ok, k) whose last axis holds normalized
// coordinates in [-1, 1], x (the last axis of X) first.
Status runGridSample(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* grid = ctx.inputArray(1);
  if (x == nullptr || grid == nullptr) return ctx.fail("needs X and grid tensors");
  if (x->isString() || x->type() == ElementType::kComplex64 ||
      x->type() == ElementType::kComplex128) {
    return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  }
  const size_t rank = x->rank();
  if (rank < 3) return ctx.fail("X must have rank 3 or more");
  const size_t k = rank - 2;
  if (grid->rank() != rank || static_cast<size_t>(grid->shape().back()) != k ||
      grid->dim(0) != x->dim(0)) {
    return ctx.fail("grid " + shapeText(grid->shape()) + " does not fit X " +
                    shapeText(x->shape()));
  }
  std::string_view mode_name = ctx.stringAttribute("mode").value_or("linear");
  GridMode mode;
  if (mode_name == "nearest") {
    mode = GridMode::kNearest;
  } else if (mode_name == "linear" || mode_name == "bilinear") {
    mode = GridMode::kLinear;
  } else if (mode_name == "cubic" || mode_name == "bicubic") {
    mode = GridMode::kCubic;
  } else {
    return ctx.fail("unknown mode \"" + std::string(mode_name) + "\"");
  }
  std::string_view padding_name = ctx.stringAttribute("padding_mode").value_or("zeros");
  GridPadding padding;
  if (padding_name == "zeros") {
    padding = GridPadding::kZeros;
  } else if (padding_name == "border") {
    padding = GridPadding::kBorder;
  } else if (padding_name == "reflection") {
    padding = GridPadding::kReflection;
  } else {
    return ctx.fail("unknown padding_mode \"" + std::string(padding_name) + "\"");
  }
  const bool align = ctx.intAttribute("align_corners").value_or(0) != 0;

  std::vector<int64_t> out_shape = {x->dim(0), x->dim(1)};
  out_shape.insert(out_shape.end(), grid->shape().begin() + 1, grid->shape().end() - 1);
  Result<Array> made = Array::allocate(x->type(), out_shape);
  if (!made) return made.status();
  const size_t batch = static_cast<size_t>(x->dim(0));
  const size_t channels = static_cast<size_t>(x->dim(1));
  const size_t points = productOf(out_shape, 2, out_shape.size());
  const size_t volume = productOf(x->shape(), 2, rank);
  std::vector<double> out(batch * channels * points);
  if (out.empty()) {
    ctx.setOutput(0, std::move(*made));
    return Status::ok();
  }
  for (size_t d = 0; d < k; ++d) {
    if (x->dim(2 + d) == 0) return ctx.fail("X has an empty spatial axis");
  }
  std::vector<double> in = realsOf(*x);
  std::vector<double> coordinates = realsOf(*grid);
  std::vector<size_t> strides =
      stridesOf(std::vector<int64_t>(x->shape().begin() + 2, x->shape().end()));
  const size_t taps = mode == GridMode::kNearest ? 1 : (mode == GridMode::kLinear ? 2 : 4);

  parallelFor(ctx, batch * points, 16, [&](size_t begin, size_t end) {
    std::vector<int64_t> index(k * taps);
    std::vector<double> weight(k * taps);
    std::vector<size_t> odometer(k);
    for (size_t item = begin; item < end; ++item) {
      size_t n = item / points;
      const double* g = coordinates.data() + item * k;
      for (size_t d = 0; d < k; ++d) {
        const int64_t size = x->dim(2 + d);
        const double length = static_cast<double>(size);
        double normalized = g[k - 1 - d];
        double position =
            align ? (normalized + 1) / 2.0 * (length - 1) : ((normalized + 1) * length - 1) / 2.0;
        // The spec's reference rounds the coordinates to float.
        if (std::abs(position) < 1e30) position = static_cast<float>(position);
        if (mode == GridMode::kNearest) position = std::nearbyint(position);
        double low = align ? 0.0 : -0.5;
        double high = align ? length - 1 : length - 0.5;
        if (position < low || position > high) {
          if (padding == GridPadding::kBorder) {
            position = std::clamp(position, 0.0, length - 1);
          } else if (padding == GridPadding::kReflection) {
            position = reflectInto(position, low, high);
          }
        }
        if (!std::isfinite(position)) position = -2.0 * length - 4;
        position = std::clamp(position, -4.0 * length - 8, 4.0 * length + 8);
        if (mode == GridMode::kNearest) {
          index[d] = gridPixel(static_cast<int64_t>(position), size, padding, low, high);
          weight[d] = 1;
          continue;
        }
        double floor_p = std::floor(position);
        double t = position - floor_p;
        int64_t base = static_cast<int64_t>(floor_p);
        for (size_t j = 0; j < taps; ++j) {
          int64_t offset =
              mode == GridMode::kLinear ? static_cast<int64_t>(j) : static_cast<int64_t>(j) - 1;
          index[d * taps + j] = gridPixel(base + offset, size, padding, low, high);
          weight[d * taps + j] = mode == GridMode::kLinear ? (j == 0 ? 1 - t : t)
                                                           : cubicWeight(t, static_cast<int>(j));
        }
      }
      size_t point = item % points;
      for (size_t c = 0; c < channels; ++c) {
        const double* plane = in.data() + (n * channels + c) * volume;
        double sum = 0;
        std::fill(odometer.begin(), odometer.end(), 0);
        while (true) {
          double w = 1;
          size_t offset = 0;
          bool zero = false;
          for (size_t d = 0; d < k; ++d) {
            int64_t i = index[d * taps + odometer[d]];
            if (i < 0) {
              zero = true;
              break;
            }
            w *= weight[d * taps + odometer[d]];
            offset += static_cast<size_t>(i) * strides[d];
          }
          if (!zero) sum += w * plane[offset];
          size_t d = k;
          while (d > 0 && ++odometer[d - 1] == taps) odometer[--d] = 0;
          if (d == 0) break;
        }
        out[(n * channels + c) * points + point] = sum;
      }
    }
  });
  ctx.setOutput(0, arrayOfReals(out, out_shape, x->type()));
  return Status::ok();
}

// Renames the mode attribute by `names` (from, to); other modes stay.
Status renameMode(NodeDraft& draft,
                  std::initializer_list<std::pair<std::string_view, std::string_view>> names) {
  const Attribute* mode = draft.attribute("mode");
  if (mode == nullptr) return Status::ok();
  if (mode->kind() != AttributeKind::kString || !mode->s)
    return draft.refuse("mode is not a string");
  for (const auto& [from, to] : names) {
    if (*mode->s == from) {
      draft.setStringAttr("mode", to);
      break;
    }
  }
  return Status::ok();
}

// Up to version 20, which names the modes linear and cubic.
Status toLinearCubic(NodeDraft& draft) {
  return renameMode(draft, {{"bilinear", "linear"}, {"bicubic", "cubic"}});
}

// Down to version 16, which samples 4-D inputs only and names the modes bilinear and bicubic.
Status toBilinearBicubic(NodeDraft& draft) {
  if (draft.inputRank(0) != 4) {
    return draft.refuse("X is not known to be 4-D");
  }
  return renameMode(draft, {{"linear", "bilinear"}, {"cubic", "bicubic"}});
}

}  // namespace

constexpr Formals kInputs16 = {{"X", "T1"}, {"grid", "T2"}};
constexpr Formals kOutputs16 = {{"Y", "T1"}};
constexpr Attributes kAttributes20 = {attr("align_corners", 0), attr("mode", "linear"),
                                      attr("padding_mode", "zeros")};
constexpr Constraints kConstraints16 = {{"T1", tensor(kIr3Types)},
                                        {"T2", tensor("float16 float double")}};

extern const Operator kGridSample;
constexpr Operator kGridSample{
    .domain = kOnnxDomain,
    .name = "GridSample",
    .versions = {
        {.since_version = 16,
         .inputs = kInputs16,
         .outputs = kOutputs16,
         .attributes = {attr("align_corners", 0), attr("mode", "bilinear"),
                        attr("padding_mode", "zeros")},
         .constraints = kConstraints16,
         .infer = inferGridSample,
         .kernel = runGridSample},
        {.since_version = 20,
         .inputs = kInputs16,
         .outputs = kOutputs16,
         .attributes = kAttributes20,
         .constraints = kConstraints16,
         .infer = inferGridSample,
         .kernel = runGridSample,
         .step = {.reviewed = true,
                  .change = "modes renamed linear and cubic; N-D inputs added",
                  .up = toLinearCubic,
                  .down = toBilinearBicubic,
                  .down_refuses = "X not known to be 4-D"}},
        {.since_version = 22,
         .inputs = kInputs16,
         .outputs = kOutputs16,
         .attributes = kAttributes20,
         .constraints = {{"T1", tensor(kIr4Types)},
                         {"T2", tensor("bfloat16 float16 float double")}},
         .infer = inferGridSample,
         .kernel = runGridSample,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGridSample));

}  // namespace onyx::ops::ai_onnx
