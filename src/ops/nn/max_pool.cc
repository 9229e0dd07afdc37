// MaxPool (ai.onnx), versions 1, 8, 10, 11, 12, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ops/channels_last.h"
#include "ops/kernels.h"
#include "ops/nn/pool_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Indices (version 8 on) has Y's shape.
void inferMaxPool(InferenceContext& ctx) { inferPooling(ctx, true); }

// The larger of a running maximum and the next tap: NaN wins, and of equal values the first
// stays (the general walk below chooses alike).
template <class T>
inline T keepMax(T best, T v) {
  return (v > best || (nn::isNan(v) && !nn::isNan(best))) ? v : best;
}

// A 2-D max pool without indices (what convolution networks use), as two passes: the maximum
// of each input row's taps for every output column, then of those over each output row's
// taps, along the output row. Both are branch-free loops the compiler vectorizes (pooled
// activations are full of ties that defeat branch prediction) while no NaN turns up, and exact
// with keepMax when one does; the row pass takes the columns whose windows lie inside the
// row tap by tap. A window is a rectangle of valid taps (rows x columns), so the two passes
// choose what the general walk below chooses: NaN wins, the first of equal maxima, 0 for a
// window wholly in the padding.
template <class T>
void maxPool2d(const KernelContext& ctx, const nn::Window& w, size_t planes, const T* in, T* out) {
  nn::AxisTaps rows = nn::axisTaps(w, 0);
  nn::AxisTaps columns = nn::axisTaps(w, 1);
  const nn::InteriorRange interior = nn::interiorOf(columns, w.kernel[1]);
  size_t height = static_cast<size_t>(w.image[0]);
  size_t width = static_cast<size_t>(w.image[1]);
  size_t out_rows = static_cast<size_t>(w.columns[0]);
  size_t out_columns = static_cast<size_t>(w.columns[1]);
  size_t row_dilation = static_cast<size_t>(w.dilations[0]);
  size_t column_dilation = static_cast<size_t>(w.dilations[1]);
  size_t column_stride = static_cast<size_t>(w.strides[1]);
  size_t kernel_width = static_cast<size_t>(w.kernel[1]);
  size_t work = w.columnVolume() * w.kernelVolume();
  parallelFor(ctx, planes, nn::grainFor(work), [&](size_t begin, size_t end) {
    std::vector<T> row_maxima(height * out_columns);
    for (size_t plane = begin; plane < end; ++plane) {
      const T* image = in + plane * height * width;
      for (size_t y = 0; y < height; ++y) {
        const T* line = image + y * width;
        T* maxima = row_maxima.data() + y * out_columns;
        // Whether the row holds a NaN, as an integer: a bool's |= does not vectorize.
        uint32_t nan = 0;
        for (size_t x = 0; x < width; ++x) nan |= nn::isNan(line[x]) ? 1u : 0u;
        // One window exactly.
        auto window = [&](size_t j) {
          size_t count = static_cast<size_t>(columns.count[j]);
          if (count == 0) return;
          const T* tap = line + static_cast<size_t>(columns.first[j]);
          T best = tap[0];
          for (size_t c = 1; c < count; ++c) best = keepMax(best, tap[c * column_dilation]);
          maxima[j] = best;
        };
        for (size_t j = 0; j < interior.begin; ++j) window(j);
        for (size_t j = interior.end; j < out_columns; ++j) window(j);
        if (nan != 0) {
          for (size_t j = interior.begin; j < interior.end; ++j) window(j);
          continue;
        }
        if (interior.begin == interior.end) continue;
        const T* taps = line + static_cast<size_t>(columns.first[interior.begin]);
        T* best = maxima + interior.begin;
        size_t n = interior.end - interior.begin;
        nn::withStride(column_stride, [&]<size_t kStride>() {
          const size_t stride = kStride != 0 ? kStride : column_stride;
          for (size_t k = 0; k < n; ++k) best[k] = taps[k * stride];
          for (size_t c = 1; c < kernel_width; ++c) {
            const T* tap = taps + c * column_dilation;
            for (size_t k = 0; k < n; ++k) {
              T v = tap[k * stride];
              best[k] = v > best[k] ? v : best[k];
            }
          }
        });
      }
      T* result = out + plane * out_rows * out_columns;
      for (size_t i = 0; i < out_rows; ++i) {
        T* target = result + i * out_columns;
        size_t count = static_cast<size_t>(rows.count[i]);
        if (count == 0) {
          std::fill(target, target + out_columns, T(0));
          continue;
        }
        const T* first = row_maxima.data() + static_cast<size_t>(rows.first[i]) * out_columns;
        std::copy_n(first, out_columns, target);
        uint32_t nan = 0;
        for (size_t j = 0; j < out_columns; ++j) nan |= nn::isNan(first[j]) ? 1u : 0u;
        for (size_t r = 1; r < count; ++r) {
          const T* next = first + r * row_dilation * out_columns;
          for (size_t j = 0; j < out_columns; ++j) {
            T v = next[j];
            target[j] = v > target[j] ? v : target[j];
            nan |= nn::isNan(v) ? 1u : 0u;
          }
        }
        if (nan != 0) {
          std::copy_n(first, out_columns, target);
          for (size_t r = 1; r < count; ++r) {
            const T* next = first + r * row_dilation * out_columns;
            for (size_t j = 0; j < out_columns; ++j) target[j] = keepMax(target[j], next[j]);
          }
        }
        // Windows wholly in the padding, at the edges.
        for (size_t j = 0; j < out_columns; ++j) {
          if (j == interior.begin) j = interior.end;
          if (j < out_columns && columns.count[j] == 0) target[j] = T(0);
        }
      }
    }
  });
}

// maxPoolChannelsLast's loop: per output position, every channel's running maximum over the
// window's valid taps in row-major order, the order the two passes above choose in.
void maxPool2dChannelsLast(const KernelContext& ctx, const nn::Window& w, size_t batch,
                           size_t channels, const float* in, float* out) {
  nn::AxisTaps rows = nn::axisTaps(w, 0);
  nn::AxisTaps columns = nn::axisTaps(w, 1);
  size_t width = static_cast<size_t>(w.image[1]);
  size_t height = static_cast<size_t>(w.image[0]);
  size_t out_rows = static_cast<size_t>(w.columns[0]);
  size_t out_columns = static_cast<size_t>(w.columns[1]);
  size_t row_dilation = static_cast<size_t>(w.dilations[0]);
  size_t column_dilation = static_cast<size_t>(w.dilations[1]);
  size_t work = out_columns * w.kernelVolume() * channels;
  parallelFor(ctx, batch * out_rows, nn::grainFor(work), [&](size_t begin, size_t end) {
    for (size_t item = begin; item < end; ++item) {
      size_t b = item / out_rows, i = item % out_rows;
      const float* image = in + b * height * width * channels;
      float* target = out + item * out_columns * channels;
      size_t row_count = static_cast<size_t>(rows.count[i]);
      for (size_t j = 0; j < out_columns; ++j, target += channels) {
        size_t column_count = static_cast<size_t>(columns.count[j]);
        if (row_count == 0 || column_count == 0) {
          std::fill_n(target, channels, 0.0f);
          continue;
        }
        // Branch-free while no NaN turns up (the loop vectorizes); keepMax over the window
        // again when one does.
        auto fold = [&]<bool kNaN>() {
          uint32_t nan = 0;
          bool first = true;
          for (size_t r = 0; r < row_count; ++r) {
            size_t y = static_cast<size_t>(rows.first[i]) + r * row_dilation;
            for (size_t c = 0; c < column_count; ++c) {
              size_t x = static_cast<size_t>(columns.first[j]) + c * column_dilation;
              const float* tap = image + (y * width + x) * channels;
              if (first) {
                std::copy_n(tap, channels, target);
                for (size_t k = 0; k < channels; ++k) nan |= nn::isNan(tap[k]) ? 1u : 0u;
                first = false;
              } else if constexpr (kNaN) {
                for (size_t k = 0; k < channels; ++k) target[k] = keepMax(target[k], tap[k]);
              } else {
                for (size_t k = 0; k < channels; ++k) {
                  float v = tap[k];
                  target[k] = v > target[k] ? v : target[k];
                  nan |= nn::isNan(v) ? 1u : 0u;
                }
              }
            }
          }
          return nan != 0;
        };
        if (fold.template operator()<false>()) fold.template operator()<true>();
      }
    }
  });
}

// The largest tap inside the input (NaN when any is NaN; the first of equal maxima), and its
// flat index in the whole input: row-major, or with storage_order 1 column-major within each
// (n, c) plane. A window entirely in the padding gives 0 and the index -1.
Status runMaxPool(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  Result<nn::Window> window = nn::poolWindow(ctx, *x, true);
  if (!window) return window.status();
  const nn::Window& w = *window;
  int64_t storage_order = ctx.intAttribute("storage_order").value_or(0);
  if (storage_order != 0 && storage_order != 1) {
    return ctx.fail("storage_order is " + std::to_string(storage_order) + "; it must be 0 or 1");
  }
  bool want_indices = ctx.hasOutput(1);
  std::vector<int64_t> dims = nn::poolOutputShape(*x, w);
  Array xs = widenToFloat(*x);
  Result<Array> made = Array::allocate(xs.type(), dims);
  if (!made) return made.status();
  Array y = std::move(*made);
  Array indices(ElementType::kInt64, want_indices ? dims : std::vector<int64_t>{0});
  size_t planes = static_cast<size_t>(x->dim(0) * x->dim(1));
  size_t volume = w.imageVolume();
  size_t outputs = w.columnVolume();
  size_t rank = w.rank();
  // Column-major strides within a plane, for storage_order 1.
  std::vector<int64_t> transposed(rank, 1);
  for (size_t a = 1; a < rank; ++a) transposed[a] = transposed[a - 1] * w.image[a - 1];
  auto pool = [&]<class T>() {
    const T* in = xs.data<T>();
    T* out = y.data<T>();
    if (rank == 2 && !want_indices) {
      maxPool2d(ctx, w, planes, in, out);
      return;
    }
    int64_t* where = want_indices ? indices.data<int64_t>() : nullptr;
    nn::forEachPoolWindow(ctx, w, planes, [&](size_t plane, size_t p, const nn::PoolTaps& taps) {
      const T* image = in + plane * volume;
      T best = T(0);
      int64_t best_offset = -1;
      taps.each([&](int64_t offset) {
        T v = image[offset];
        if (best_offset < 0 || v > best || (nn::isNan(v) && !nn::isNan(best))) {
          best = v;
          best_offset = offset;
        }
      });
      size_t at = plane * outputs + p;
      out[at] = best;
      if (where == nullptr) return;
      if (best_offset < 0) {
        where[at] = -1;
        return;
      }
      int64_t index = best_offset;
      if (storage_order == 1) {
        index = 0;
        int64_t rest = best_offset;
        for (size_t a = rank; a-- > 0;) {
          index += (rest % w.image[a]) * transposed[a];
          rest /= w.image[a];
        }
      }
      where[at] = static_cast<int64_t>(plane * volume) + index;
    });
  };
  switch (xs.type()) {
    case ElementType::kFloat: pool.template operator()<float>(); break;
    case ElementType::kDouble: pool.template operator()<double>(); break;
    case ElementType::kInt8: pool.template operator()<int8_t>(); break;
    case ElementType::kUint8: pool.template operator()<uint8_t>(); break;
    default: return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  }
  ctx.setOutput(0, narrowFromFloat(y, x->type()));
  if (want_indices) ctx.setOutput(1, std::move(indices));
  return Status::ok();
}

// Down to version 1, which has no Indices output; without that output storage_order, which
// only numbers the indices, means nothing.
Status dropIndices(NodeDraft& draft) {
  const Node& node = draft.node();
  if (node.outputCount() > 1 && node.output(1) != nullptr) {
    return draft.refuse("the Indices output has no form in version 1");
  }
  draft.removeAttribute("storage_order");
  return Status::ok();
}

// Down to version 8: ceil_mode 0 and dilations of 1, the one behaviour it has.
Status dropCeilModeAndDilations(NodeDraft& draft) {
  if (draft.attribute("ceil_mode") != nullptr) {
    if (draft.intAttr("ceil_mode") != 0) {
      return draft.refuse("ceil_mode other than 0 has no form in version 8");
    }
    draft.removeAttribute("ceil_mode");
  }
  if (draft.attribute("dilations") != nullptr) {
    std::optional<std::vector<int64_t>> dilations = draft.intsAttr("dilations");
    if (!dilations || std::any_of(dilations->begin(), dilations->end(),
                                  [](int64_t dilation) { return dilation != 1; })) {
      return draft.refuse("dilations other than 1 have no form in version 8");
    }
    draft.removeAttribute("dilations");
  }
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs8 = {{"Y", "T"}, optional("Indices", "I")};
constexpr Attributes kAttributes10 = {attr("auto_pad", "NOTSET"), attr("ceil_mode", 0),
                                      attr("dilations", kInts),   required("kernel_shape", kInts),
                                      attr("pads", kInts),        attr("storage_order", 0),
                                      attr("strides", kInts)};
constexpr Constraints kConstraints8 = {{"T", tensor("float16 float double")},
                                       {"I", tensor("int64")}};

extern const Operator kMaxPool;
constexpr Operator kMaxPool{
    .domain = kOnnxDomain,
    .name = "MaxPool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = {{"Y", "T"}},
         .attributes = {attr("auto_pad", "NOTSET"), required("kernel_shape", kInts),
                        attr("pads", kInts), attr("strides", kInts)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferMaxPool,
         .kernel = runMaxPool},
        {.since_version = 8,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = {attr("auto_pad", "NOTSET"), required("kernel_shape", kInts),
                        attr("pads", kInts), attr("storage_order", 0), attr("strides", kInts)},
         .constraints = kConstraints8,
         .infer = inferMaxPool,
         .kernel = runMaxPool,
         .step = {.reviewed = true,
                  .change = "Indices output and storage_order added",
                  .down = dropIndices,
                  .down_refuses = "nodes with the Indices output"}},
        {.since_version = 10,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = kAttributes10,
         .constraints = kConstraints8,
         .infer = inferMaxPool,
         .kernel = runMaxPool,
         .step = {.reviewed = true,
                  .change = "ceil_mode and dilations added (0 and 1: as before)",
                  .down = dropCeilModeAndDilations,
                  .down_refuses = "ceil_mode other than 0, dilations other than 1"}},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = kAttributes10,
         .constraints = kConstraints8,
         .infer = inferMaxPool,
         .kernel = runMaxPool,
         .step = {.reviewed = true, .change = "strides and dilations defaults of 1 documented"}},
        {.since_version = 12,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("float16 float double int8 uint8")}, {"I", tensor("int64")}},
         .infer = inferMaxPool,
         .kernel = runMaxPool,
         .step = typesOnly("int8 and uint8 added")},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("bfloat16 float16 float double int8 uint8")},
                         {"I", tensor("int64")}},
         .infer = inferMaxPool,
         .kernel = runMaxPool,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kMaxPool));

}  // namespace onyx::ops::ai_onnx

namespace onyx::ops {

Result<std::optional<Array>> maxPoolChannelsLast(const KernelContext& ctx, const Array& x) {
  // A bad storage_order is for the channels-first kernel to report.
  int64_t storage_order = ctx.intAttribute("storage_order").value_or(0);
  if (x.type() != ElementType::kFloat || x.rank() != 4 || ctx.hasOutput(1) ||
      (storage_order != 0 && storage_order != 1)) {
    return std::optional<Array>();
  }
  std::vector<int64_t> nchw = {x.dim(0), x.dim(3), x.dim(1), x.dim(2)};
  Result<nn::Window> window = nn::poolWindow(ctx, nchw, true);
  if (!window) return window.status();
  const nn::Window& w = *window;
  Result<Array> made =
      Array::allocate(ElementType::kFloat, {x.dim(0), w.columns[0], w.columns[1], x.dim(3)});
  if (!made) return made.status();
  ai_onnx::maxPool2dChannelsLast(ctx, w, static_cast<size_t>(x.dim(0)),
                                 static_cast<size_t>(x.dim(3)), x.data<float>(),
                                 made->data<float>());
  return std::optional<Array>(std::move(*made));
}

}  // namespace onyx::ops
