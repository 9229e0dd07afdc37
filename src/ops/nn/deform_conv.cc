// DeformConv (ai.onnx), versions 19, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include <string>
#include <vector>

#include "ops/kernels.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// DeformConv's output has Conv's shape: the offsets move the sampling points, not the grid.
void inferDeformConv(InferenceContext& ctx) { inferConvolution(ctx, 0, 1); }

// The value of `image` (sizes `dims`, row-major) at the fractional position `pos` by
// multilinear interpolation; corners outside the image read zero.
template <class T>
T interpolate(const T* image, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
              const T* pos, std::vector<int64_t>& low, std::vector<T>& frac) {
  size_t rank = dims.size();
  for (size_t a = 0; a < rank; ++a) {
    T f = std::floor(pos[a]);
    // Far outside: no corner can be inside (also keeps the casts below in range).
    if (!(f > T(-2)) || !(f < static_cast<T>(dims[a]))) return T(0);
    low[a] = static_cast<int64_t>(f);
    frac[a] = pos[a] - f;
  }
  T sum = 0;
  for (size_t corner = 0; corner < (size_t{1} << rank); ++corner) {
    T weight = 1;
    int64_t offset = 0;
    bool inside = true;
    for (size_t a = 0; a < rank; ++a) {
      bool high = ((corner >> a) & 1) != 0;
      int64_t i = low[a] + (high ? 1 : 0);
      if (i < 0 || i >= dims[a]) {
        inside = false;
        break;
      }
      weight *= high ? frac[a] : T(1) - frac[a];
      offset += i * strides[a];
    }
    if (inside) sum += weight * image[offset];
  }
  return sum;
}

// Conv whose sampling points are moved by `offset` (and whose samples are scaled by `mask`):
// the columns are gathered by interpolation, then multiplied by the weight with nn::gemm.
Status runDeformConv(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* w = ctx.inputArray(1);
  const Array* offset = ctx.inputArray(2);
  const Array* b = ctx.inputArray(3);
  const Array* mask = ctx.inputArray(4);
  if (x == nullptr || w == nullptr || offset == nullptr) {
    return ctx.fail("needs the tensors X, W and offset");
  }
  for (const Array* other : {w, offset, b, mask}) {
    if (other != nullptr && other->type() != x->type()) {
      return ctx.fail("the inputs have different element types");
    }
  }
  Result<nn::ConvShape> shape = nn::convShape(ctx, x->shape(), w->shape());
  if (!shape) return shape.status();
  const nn::Window& win = shape->window;
  size_t rank = win.rank();
  int64_t offset_group = ctx.intAttribute("offset_group").value_or(1);
  if (offset_group <= 0 || shape->channels % offset_group != 0) {
    return ctx.fail("offset_group is " + std::to_string(offset_group) +
                    "; it must be positive and divide the input channels");
  }
  size_t kvol = win.kernelVolume();
  std::vector<int64_t> expected = {shape->batch, offset_group * static_cast<int64_t>(kvol * rank)};
  expected.insert(expected.end(), win.columns.begin(), win.columns.end());
  if (offset->shape() != expected) {
    return ctx.fail("offset must have shape (N, offset_group * kernel size * " +
                    std::to_string(rank) + ", output...)");
  }
  expected[1] = offset_group * static_cast<int64_t>(kvol);
  if (mask != nullptr && mask->shape() != expected) {
    return ctx.fail("mask must have shape (N, offset_group * kernel size, output...)");
  }
  if (b != nullptr && (b->rank() != 1 || b->dim(0) != shape->outputs)) {
    return ctx.fail("B must have shape [" + std::to_string(shape->outputs) + "]");
  }
  std::vector<int64_t> dims = {shape->batch, shape->outputs};
  dims.insert(dims.end(), win.columns.begin(), win.columns.end());
  Array xs = widenToFloat(*x);
  Array ws = widenToFloat(*w);
  Array os = widenToFloat(*offset);
  Array bs = b != nullptr ? widenToFloat(*b) : Array();
  Array ms = mask != nullptr ? widenToFloat(*mask) : Array();
  Result<Array> made = Array::allocate(xs.type(), dims);
  if (!made) return made.status();
  Array y = std::move(*made);
  size_t batch = static_cast<size_t>(shape->batch);
  size_t channels = static_cast<size_t>(shape->channels);
  size_t groups = static_cast<size_t>(shape->group);
  size_t cg = channels / groups;
  size_t mg = static_cast<size_t>(shape->outputs) / groups;
  size_t per_offset_group = channels / static_cast<size_t>(offset_group);
  size_t image_volume = win.imageVolume();
  size_t columns = win.columnVolume();
  size_t depth = cg * kvol;
  std::vector<int64_t> image_strides(rank, 1);
  for (size_t a = rank; a-- > 1;) image_strides[a - 1] = image_strides[a] * win.image[a];
  bool ok = dispatchFloat(xs.type(), [&]<class T>() {
    const T* xd = xs.data<T>();
    const T* wd = ws.data<T>();
    const T* od = os.data<T>();
    const T* md = mask != nullptr ? ms.data<T>() : nullptr;
    T* yd = y.data<T>();
    if (columns == 0 || batch == 0 || mg == 0) return;
    size_t tile = nn::columnTile(depth, columns);
    size_t tiles = (columns + tile - 1) / tile;
    parallelFor(
        ctx, batch * groups * tiles, nn::grainFor(mg * depth * tile),
        [&](size_t begin, size_t end) {
          std::vector<T> col(depth * tile);
          std::vector<int64_t> taps(rank), coords(rank), low(rank);
          std::vector<T> pos(rank), frac(rank);
          for (size_t task = begin; task < end; ++task) {
            size_t t0 = task % tiles;
            size_t g = (task / tiles) % groups;
            size_t n = task / tiles / groups;
            size_t p0 = t0 * tile;
            size_t p1 = std::min(columns, p0 + tile);
            size_t width = p1 - p0;
            for (size_t c = 0; c < cg; ++c) {
              size_t channel = g * cg + c;
              size_t og = channel / per_offset_group;
              const T* image = xd + (n * channels + channel) * image_volume;
              for (size_t t = 0; t < kvol; ++t) {
                nn::tapCoordinates(win, t, taps.data());
                const T* shift =
                    od + ((n * static_cast<size_t>(offset_group) + og) * kvol + t) * rank * columns;
                const T* scale =
                    md != nullptr
                        ? md + ((n * static_cast<size_t>(offset_group) + og) * kvol + t) * columns
                        : nullptr;
                T* row = col.data() + (c * kvol + t) * width;
                for (size_t p = p0; p < p1; ++p) {
                  size_t rest = p;
                  for (size_t a = rank; a-- > 0;) {
                    coords[a] = static_cast<int64_t>(rest % static_cast<size_t>(win.columns[a]));
                    rest /= static_cast<size_t>(win.columns[a]);
                  }
                  for (size_t a = 0; a < rank; ++a) {
                    pos[a] = static_cast<T>(coords[a] * win.strides[a] - win.pad_begin[a] +
                                            taps[a] * win.dilations[a]) +
                             shift[a * columns + p];
                  }
                  T value = interpolate(image, win.image, image_strides, pos.data(), low, frac);
                  row[p - p0] = scale != nullptr ? value * scale[p] : value;
                }
              }
            }
            T* out = yd + (n * static_cast<size_t>(shape->outputs) + g * mg) * columns + p0;
            nn::gemm(mg, width, depth, wd + g * mg * depth, depth, col.data(), width, out, columns);
            if (b != nullptr) {
              const T* bias = bs.data<T>() + g * mg;
              for (size_t m = 0; m < mg; ++m) {
                for (size_t j = 0; j < width; ++j) out[m * columns + j] += bias[m];
              }
            }
          }
        });
  });
  if (!ok) return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(y, x->type()));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs19 = {
    {"X", "T"}, {"W", "T"}, {"offset", "T"}, optional("B", "T"), optional("mask", "T")};
constexpr Formals kOutputs19 = {{"Y", "T"}};
constexpr Attributes kAttributes19 = {attr("dilations", kInts),    attr("group", 1),
                                      attr("kernel_shape", kInts), attr("offset_group", 1),
                                      attr("pads", kInts),         attr("strides", kInts)};

extern const Operator kDeformConv;
constexpr Operator kDeformConv{.domain = kOnnxDomain,
                               .name = "DeformConv",
                               .versions = {
                                   {.since_version = 19,
                                    .inputs = kInputs19,
                                    .outputs = kOutputs19,
                                    .attributes = kAttributes19,
                                    .constraints = {{"T", tensor("float16 float double")}},
                                    .infer = inferDeformConv,
                                    .kernel = runDeformConv},
                                   {.since_version = 22,
                                    .inputs = kInputs19,
                                    .outputs = kOutputs19,
                                    .attributes = kAttributes19,
                                    .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                                    .infer = inferDeformConv,
                                    .kernel = runDeformConv,
                                    .step = typesOnly("bfloat16 added")},
                               }};
static_assert(isWellFormed(kDeformConv));

}  // namespace onyx::ops::ai_onnx
