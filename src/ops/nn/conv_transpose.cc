// ConvTranspose (ai.onnx), versions 1, 11, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/kernels.h"
#include "ops/matrix_multiply.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Output (N, W[1] * group, spatial...): output_shape when given, else
// stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1 - pads, where SAME
// pads total max(0, window - stride) split between the two ends.
void inferConvTranspose(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() < 3) {
    ctx.fail("the input has rank " + std::to_string(input->size()) +
             "; ConvTranspose needs (N, C, D1, ...)");
    return;
  }
  size_t spatial = input->size() - 2;
  const Dims* weight = ctx.inputShape(1);
  if (weight != nullptr && weight->size() != input->size()) {
    ctx.fail("the weight has rank " + std::to_string(weight->size()) + ", the input rank " +
             std::to_string(input->size()));
    return;
  }
  int64_t group = ctx.intAttribute("group").value_or(1);
  if (group <= 0) {
    ctx.fail("group is " + std::to_string(group) + "; it must be positive");
    return;
  }
  // onnx's convTransposeShapeInference (onnx/defs/nn/defs.cc) refuses input channels that
  // do not split into the groups, and window attributes that do not fit, whether or not
  // output_shape is given.
  if ((*input)[1].isKnown() && (*input)[1].value() % group != 0) {
    ctx.fail("the input has " + std::to_string((*input)[1].value()) +
             " channels, which do not split into " + std::to_string(group) + " groups");
    return;
  }
  std::optional<std::vector<int64_t>> strides = spatialAttribute(ctx, "strides", spatial, 1, 1);
  if (!strides) return;
  std::optional<std::vector<int64_t>> dilations = spatialAttribute(ctx, "dilations", spatial, 1, 1);
  if (!dilations) return;
  std::optional<std::vector<int64_t>> output_padding =
      spatialAttribute(ctx, "output_padding", spatial, 0, 0);
  if (!output_padding) return;
  std::optional<std::vector<int64_t>> explicit_pads = ctx.intsAttribute("pads");
  bool has_pads = explicit_pads && !explicit_pads->empty();
  std::optional<std::vector<int64_t>> pads = spatialAttribute(ctx, "pads", 2 * spatial, 0, 0);
  if (!pads) return;
  std::optional<AutoPad> auto_pad = autoPadOf(ctx);
  if (!auto_pad) return;
  SymbolicDims& dims = ctx.dims();
  Dims out;
  out.reserve(input->size());
  out.push_back((*input)[0]);
  out.push_back(weight != nullptr ? dims.multiply((*weight)[1], DimValue::known(group))
                                  : dims.fresh());

  std::optional<std::vector<int64_t>> output_shape = ctx.intsAttribute("output_shape");
  if (output_shape && !output_shape->empty()) {
    // Written either for the spatial axes alone or for all axes.
    if (output_shape->size() != spatial && output_shape->size() != spatial + 2) {
      ctx.fail("output_shape has " + std::to_string(output_shape->size()) + " values for " +
               std::to_string(spatial) + " spatial axes");
      return;
    }
    for (size_t i = output_shape->size() - spatial; i < output_shape->size(); ++i) {
      int64_t size = (*output_shape)[i];
      if (size < 0) {
        ctx.fail("output_shape has the negative value " + std::to_string(size));
        return;
      }
      out.push_back(DimValue::known(size));
    }
    ctx.setOutputShape(0, std::move(out));
    return;
  }

  std::optional<std::vector<int64_t>> kernel = ctx.intsAttribute("kernel_shape");
  if (kernel && !kernel->empty()) {
    kernel = spatialAttribute(ctx, "kernel_shape", spatial, 1, 1);
    if (!kernel) return;
  } else {
    kernel.reset();
    if (weight != nullptr) {
      std::vector<int64_t> from_weight;
      for (size_t i = 2; i < weight->size() && (*weight)[i].isKnown(); ++i) {
        from_weight.push_back((*weight)[i].value());
      }
      if (from_weight.size() == spatial) kernel = std::move(from_weight);
    }
  }
  if (!kernel) {
    for (size_t i = 0; i < spatial; ++i) out.push_back(dims.fresh());
    ctx.setOutputShape(0, std::move(out));
    return;
  }
  for (size_t i = 0; i < spatial; ++i) {
    if ((*kernel)[i] <= 0) {
      ctx.fail("the kernel has the size " + std::to_string((*kernel)[i]) +
               "; sizes must be positive");
      return;
    }
    DimValue stride = DimValue::known((*strides)[i]);
    DimValue window =
        dims.add(dims.multiply(DimValue::known((*kernel)[i] - 1), DimValue::known((*dilations)[i])),
                 DimValue::known(1));
    DimValue pad_total =
        dims.add(DimValue::known((*pads)[i]), DimValue::known((*pads)[spatial + i]));
    if (!has_pads && (*auto_pad == AutoPad::kSameUpper || *auto_pad == AutoPad::kSameLower)) {
      DimValue excess = dims.subtract(window, stride);
      pad_total = excess.isKnown() && excess.value() > 0 ? excess : DimValue::known(0);
    }
    DimValue size = dims.multiply(stride, dims.subtract((*input)[2 + i], DimValue::known(1)));
    size = dims.add(size, DimValue::known((*output_padding)[i]));
    size = dims.subtract(dims.add(size, window), pad_total);
    if (size.isKnown() && size.value() < 0) {
      ctx.fail("spatial axis " + std::to_string(i) + " gets the negative size " +
               std::to_string(size.value()));
      return;
    }
    out.push_back(size);
  }
  ctx.setOutputShape(0, std::move(out));
}

// The geometry of a ConvTranspose as a Window whose image is the output and whose columns are
// the input positions: output index = input index * stride - pad_begin + tap * dilation.
// Output sizes: output_shape when given (pads then derived from it), else input * stride for
// SAME auto_pad, else stride * (in - 1) + output_padding + extent - pads; the total padding
// is split with the odd one at the end for SAME_UPPER, at the beginning otherwise.
Result<nn::Window> transposedWindow(const KernelContext& ctx, const std::vector<int64_t>& x,
                                    std::vector<int64_t> kernel) {
  size_t rank = x.size() - 2;
  nn::Window w;
  w.kernel = std::move(kernel);
  w.columns.assign(x.begin() + 2, x.end());
  Result<std::vector<int64_t>> strides = nn::axisInts(ctx, "strides", rank, 1, 1);
  if (!strides) return strides.status();
  Result<std::vector<int64_t>> dilations = nn::axisInts(ctx, "dilations", rank, 1, 1);
  if (!dilations) return dilations.status();
  Result<std::vector<int64_t>> output_padding = nn::axisInts(ctx, "output_padding", rank, 0, 0);
  if (!output_padding) return output_padding.status();
  std::optional<std::vector<int64_t>> given_pads = ctx.intsAttribute("pads");
  bool has_pads = given_pads && !given_pads->empty();
  Result<std::vector<int64_t>> pads = nn::axisInts(ctx, "pads", 2 * rank, 0, 0);
  if (!pads) return pads.status();
  Result<AutoPad> auto_pad = nn::autoPadAttribute(ctx);
  if (!auto_pad) return auto_pad.status();
  std::optional<std::vector<int64_t>> output_shape = ctx.intsAttribute("output_shape");
  bool has_output_shape = output_shape && !output_shape->empty();
  if (has_output_shape) {
    if (output_shape->size() != rank && output_shape->size() != rank + 2) {
      return ctx.fail("output_shape has " + std::to_string(output_shape->size()) + " values for " +
                      std::to_string(rank) + " spatial axes");
    }
    output_shape->erase(
        output_shape->begin(),
        output_shape->begin() + static_cast<std::ptrdiff_t>(output_shape->size() - rank));
    for (int64_t size : *output_shape) {
      if (size < 0 || size > nn::kMaxWindowValue) {
        return ctx.fail("output_shape has the value " + std::to_string(size));
      }
    }
  }
  bool same = *auto_pad == AutoPad::kSameUpper || *auto_pad == AutoPad::kSameLower;
  w.strides = std::move(*strides);
  w.dilations = std::move(*dilations);
  w.image.resize(rank);
  w.pad_begin.resize(rank);
  w.pad_end.resize(rank);
  for (size_t a = 0; a < rank; ++a) {
    // stride * input stays far from overflowing (any larger output could not be allocated).
    int64_t scaled = 0;
    if (__builtin_mul_overflow(w.strides[a], w.columns[a], &scaled) ||
        scaled > (int64_t{1} << 52)) {
      return ctx.fail("spatial axis " + std::to_string(a) + " would be too large");
    }
    int64_t full =
        w.columns[a] == 0 ? 0 : scaled - w.strides[a] + (*output_padding)[a] + w.extent(a);
    if (has_output_shape || (same && !has_pads)) {
      int64_t out = has_output_shape ? (*output_shape)[a] : scaled;
      int64_t total = full - out;
      int64_t half = nn::floorDiv(total, 2);
      w.pad_begin[a] = *auto_pad == AutoPad::kSameUpper ? half : total - half;
      w.pad_end[a] = total - w.pad_begin[a];
      w.image[a] = out;
    } else {
      w.pad_begin[a] = (*pads)[a];
      w.pad_end[a] = (*pads)[rank + a];
      w.image[a] = full - w.pad_begin[a] - w.pad_end[a];
      if (w.image[a] < 0) {
        return ctx.fail("spatial axis " + std::to_string(a) + " gets the negative size " +
                        std::to_string(w.image[a]));
      }
    }
  }
  return w;
}

// The sizes of a ConvTranspose: x (batch, channels, columns...), w (channels, Mg, kernel...),
// y (batch, groups * Mg, image...) as `window` has them.
struct TransposedShape {
  size_t batch = 0;
  size_t groups = 0;
  size_t group_channels = 0;  // Cg
  size_t group_outputs = 0;   // Mg
  nn::Window window;
};

// y = col2im(W_g^T X_g) (+ bias) for each image and group: a gemm of the transposed weight by
// the group's input into columns (sgemm for float), added into the output image. Parallel over
// (image, group, block of output channels), and over column tiles too when no two input
// positions reach the same output (a kernel no larger than its stride, as upsampling layers
// have it); blocks and tiles depend only on the shapes, so the thread count changes nothing.
// When the windows tile the output exactly (kernel = stride, no padding), each output is
// written once, tap + bias, and never filled first.
template <class T>
void transposedConvolution(const KernelContext& ctx, const TransposedShape& s, const T* x,
                           const T* w, const T* bias, T* y) {
  const nn::Window& win = s.window;
  const size_t channels = s.groups * s.group_channels;
  const size_t outputs = s.groups * s.group_outputs;
  const size_t cg = s.group_channels;
  const size_t mg = s.group_outputs;
  const size_t kvol = win.kernelVolume();
  const size_t rows = mg * kvol;  // of W_g^T
  const size_t in_volume = win.columnVolume();
  const size_t out_volume = win.imageVolume();
  bool disjoint = true;
  bool tiling = true;
  for (size_t a = 0; a < win.rank(); ++a) {
    disjoint = disjoint && win.extent(a) <= win.strides[a];
    tiling = tiling && win.extent(a) == win.strides[a] && win.pad_begin[a] == 0 &&
             win.image[a] == win.columns[a] * win.strides[a];
  }
  // Otherwise each output starts at 0, or at its bias when it receives one tap at most (bias
  // + tap is then what adding the bias last gives).
  if (!tiling) {
    parallelFor(ctx, s.batch * outputs, nn::grainFor(out_volume), [&](size_t begin, size_t end) {
      for (size_t plane = begin; plane < end; ++plane) {
        T start = disjoint && bias != nullptr ? bias[plane % outputs] : T(0);
        std::fill(y + plane * out_volume, y + (plane + 1) * out_volume, start);
      }
    });
  }
  // The portable product wants W_g^T stored: W as (group, Mg * kvol, Cg).
  std::vector<T> transposed(std::is_same_v<T, float> ? 0 : s.groups * rows * cg);
  for (size_t g = 0; g < transposed.size() / std::max<size_t>(rows * cg, 1); ++g) {
    for (size_t c = 0; c < cg; ++c) {
      const T* from = w + (g * cg + c) * rows;
      T* to = transposed.data() + g * rows * cg + c;
      for (size_t r = 0; r < rows; ++r) to[r * cg] = from[r];
    }
  }
  // Output channels per task: about 256 rows of W_g^T.
  const size_t block = std::max<size_t>(1, std::min(mg, 256 / kvol));
  const size_t blocks = (mg + block - 1) / block;
  const size_t tile = nn::columnTile(block * kvol, in_volume);
  const size_t tiles = (in_volume + tile - 1) / tile;
  const size_t task_tiles = disjoint ? tiles : 1;
  const nn::TapTable table = nn::tapTable(win);
  const size_t tasks = s.batch * s.groups * blocks * task_tiles;
  parallelFor(ctx, tasks, nn::grainFor(block * kvol * cg * tile), [&](size_t begin, size_t end) {
    std::vector<T> col(block * kvol * tile);
    for (size_t task = begin; task < end; ++task) {
      size_t rest = task;
      const size_t t = rest % task_tiles;
      rest /= task_tiles;
      const size_t m0 = rest % blocks * block;
      rest /= blocks;
      const size_t g = rest % s.groups;
      const size_t n = rest / s.groups;
      const size_t m1 = std::min(mg, m0 + block);
      const size_t m_rows = (m1 - m0) * kvol;
      const T* image = x + (n * channels + g * cg) * in_volume;
      T* out = y + (n * outputs + g * mg + m0) * out_volume;
      for (size_t tt = disjoint ? t : 0; tt < (disjoint ? t + 1 : tiles); ++tt) {
        const size_t p0 = tt * tile;
        const size_t p1 = std::min(in_volume, p0 + tile);
        if constexpr (std::is_same_v<T, float>) {
          // W_g is (Cg, Mg * kvol): the rows of W_g^T for channels [m0, m1) are columns of it.
          multiplyFloatOnThisThread(ctx, true, false, m_rows, p1 - p0, cg, 1.0f,
                                    w + g * cg * rows + m0 * kvol, rows, image + p0, in_volume,
                                    0.0f, col.data(), p1 - p0);
        } else {
          nn::gemm(m_rows, p1 - p0, cg, transposed.data() + (g * rows + m0 * kvol) * cg, cg,
                   image + p0, in_volume, col.data(), p1 - p0);
        }
        if (!tiling) {
          nn::col2imAdd(win, table, col.data(), m1 - m0, p0, p1, out);
          continue;
        }
        nn::forEachCol2imRun(
            win, table, col.data(), m1 - m0, p0, p1, out,
            [&](T* __restrict to, const T* __restrict from, size_t count, size_t step, size_t m) {
              const T add = bias != nullptr ? bias[g * mg + m0 + m] : T(0);
              nn::withStride(step, [&]<size_t kStride>() {
                const size_t stride = kStride != 0 ? kStride : step;
                for (size_t j = 0; j < count; ++j) to[j * stride] = from[j] + add;
              });
            });
      }
      if (!disjoint && bias != nullptr) {
        for (size_t m = m0; m < m1; ++m) {
          const T add = bias[g * mg + m];
          T* row = out + (m - m0) * out_volume;
          for (size_t i = 0; i < out_volume; ++i) row[i] += add;
        }
      }
    }
  });
}

Status runConvTranspose(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* w = ctx.inputArray(1);
  const Array* b = ctx.inputArray(2);
  if (x == nullptr || w == nullptr) return ctx.fail("needs the tensors X and W");
  if (x->type() != w->type() || (b != nullptr && b->type() != x->type())) {
    return ctx.fail("X, W and B have different element types");
  }
  if (x->rank() < 3) {
    return ctx.fail("the input has rank " + std::to_string(x->rank()) +
                    "; ConvTranspose needs (N, C, D1, ...)");
  }
  if (w->rank() != x->rank()) {
    return ctx.fail("the weight has rank " + std::to_string(w->rank()) + ", the input rank " +
                    std::to_string(x->rank()));
  }
  int64_t group = ctx.intAttribute("group").value_or(1);
  if (group <= 0) return ctx.fail("group is " + std::to_string(group) + "; it must be positive");
  int64_t channels = x->dim(1);
  if (w->dim(0) != channels || channels % group != 0) {
    return ctx.fail("the input has " + std::to_string(channels) +
                    " channels; the weight's first dimension is " + std::to_string(w->dim(0)) +
                    " and group " + std::to_string(group));
  }
  std::vector<int64_t> kernel(w->shape().begin() + 2, w->shape().end());
  std::optional<std::vector<int64_t>> given = ctx.intsAttribute("kernel_shape");
  if (given && !given->empty() && *given != kernel) {
    return ctx.fail("kernel_shape does not match the weight's spatial dimensions");
  }
  for (int64_t k : kernel) {
    if (k == 0) return ctx.fail("the weight has an empty spatial dimension");
  }
  int64_t outputs = w->dim(1) * group;
  if (b != nullptr && (b->rank() != 1 || b->dim(0) != outputs)) {
    return ctx.fail("B must have shape [" + std::to_string(outputs) + "]");
  }
  Result<nn::Window> window = transposedWindow(ctx, x->shape(), kernel);
  if (!window) return window.status();
  TransposedShape shape;
  shape.batch = static_cast<size_t>(x->dim(0));
  shape.groups = static_cast<size_t>(group);
  shape.group_channels = static_cast<size_t>(channels / group);
  shape.group_outputs = static_cast<size_t>(w->dim(1));
  shape.window = std::move(*window);
  std::vector<int64_t> dims = {x->dim(0), outputs};
  dims.insert(dims.end(), shape.window.image.begin(), shape.window.image.end());
  Array xs = widenToFloat(*x);
  Array ws = widenToFloat(*w);
  Array bs = b != nullptr ? widenToFloat(*b) : Array();
  Result<Array> made = Array::allocate(xs.type(), dims);
  if (!made) return made.status();
  Array y = std::move(*made);
  bool ok = dispatchFloat(xs.type(), [&]<class T>() {
    transposedConvolution(ctx, shape, xs.data<T>(), ws.data<T>(),
                          b != nullptr ? bs.data<T>() : nullptr, y.data<T>());
  });
  if (!ok) return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(y, x->type()));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}, {"W", "T"}, optional("B", "T")};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {
    attr("auto_pad", "NOTSET"),  attr("dilations", kInts),      attr("group", 1),
    attr("kernel_shape", kInts), attr("output_padding", kInts), attr("output_shape", kInts),
    attr("pads", kInts),         attr("strides", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kConvTranspose;
constexpr Operator kConvTranspose{
    .domain = kOnnxDomain,
    .name = "ConvTranspose",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferConvTranspose,
         .kernel = runConvTranspose},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferConvTranspose,
         .kernel = runConvTranspose,
         .step = {.reviewed = true, .change = "strides and dilations defaults of 1 documented"}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferConvTranspose,
         .kernel = runConvTranspose,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kConvTranspose));

}  // namespace onyx::ops::ai_onnx
