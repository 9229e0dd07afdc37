// AveragePool (ai.onnx), versions 1, 7, 10, 11, 19, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ops/kernels.h"
#include "ops/nn/pool_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Dilations exist from version 19; earlier versions have none.
void inferAveragePool(InferenceContext& ctx) { inferPooling(ctx, false); }
void inferAveragePool19(InferenceContext& ctx) { inferPooling(ctx, true); }

// A 2-D average pool as two passes, as MaxPool's: the sum of each input row's taps for every
// output column (the columns whose windows lie inside the row tap by tap, a loop the compiler
// vectorizes), then of those sums over each output row's taps; in double, each sum from 0 in
// the general walk's order of taps, the divisor as the general walk has it.
template <class T>
void averagePool2d(const KernelContext& ctx, const nn::Window& w, size_t planes, bool include_pad,
                   const T* in, T* out) {
  const nn::AxisTaps rows = nn::axisTaps(w, 0);
  const nn::AxisTaps columns = nn::axisTaps(w, 1);
  const nn::InteriorRange interior = nn::interiorOf(columns, w.kernel[1]);
  const size_t height = static_cast<size_t>(w.image[0]);
  const size_t width = static_cast<size_t>(w.image[1]);
  const size_t out_rows = static_cast<size_t>(w.columns[0]);
  const size_t out_columns = static_cast<size_t>(w.columns[1]);
  const size_t row_dilation = static_cast<size_t>(w.dilations[0]);
  const size_t column_dilation = static_cast<size_t>(w.dilations[1]);
  const size_t column_stride = static_cast<size_t>(w.strides[1]);
  const size_t kernel_width = static_cast<size_t>(w.kernel[1]);
  std::vector<double> divisors(out_rows * out_columns);
  for (size_t i = 0; i < out_rows; ++i) {
    for (size_t j = 0; j < out_columns; ++j) {
      divisors[i * out_columns + j] =
          include_pad ? static_cast<double>(rows.padded[i]) * static_cast<double>(columns.padded[j])
                      : static_cast<double>(rows.count[i] * columns.count[j]);
    }
  }
  parallelFor(ctx, planes, nn::grainFor(w.columnVolume() * w.kernelVolume()),
              [&](size_t begin, size_t end) {
                std::vector<double> row_sums(height * out_columns);
                std::vector<double> sums(out_columns);
                for (size_t plane = begin; plane < end; ++plane) {
                  const T* image = in + plane * height * width;
                  for (size_t y = 0; y < height; ++y) {
                    const T* line = image + y * width;
                    double* row = row_sums.data() + y * out_columns;
                    auto window = [&](size_t j) {
                      const size_t first = static_cast<size_t>(columns.first[j]);
                      const size_t count = static_cast<size_t>(columns.count[j]);
                      double sum = 0;
                      for (size_t c = 0; c < count; ++c) {
                        sum += static_cast<double>(line[first + c * column_dilation]);
                      }
                      row[j] = sum;
                    };
                    for (size_t j = 0; j < interior.begin; ++j) window(j);
                    for (size_t j = interior.end; j < out_columns; ++j) window(j);
                    if (interior.begin == interior.end) continue;
                    const T* taps = line + static_cast<size_t>(columns.first[interior.begin]);
                    double* sum = row + interior.begin;
                    size_t n = interior.end - interior.begin;
                    nn::withStride(column_stride, [&]<size_t kStride>() {
                      const size_t stride = kStride != 0 ? kStride : column_stride;
                      std::fill(sum, sum + n, 0.0);
                      for (size_t c = 0; c < kernel_width; ++c) {
                        const T* tap = taps + c * column_dilation;
                        for (size_t k = 0; k < n; ++k) {
                          sum[k] += static_cast<double>(tap[k * stride]);
                        }
                      }
                    });
                  }
                  T* result = out + plane * out_rows * out_columns;
                  for (size_t i = 0; i < out_rows; ++i) {
                    std::fill(sums.begin(), sums.end(), 0.0);
                    const size_t count = static_cast<size_t>(rows.count[i]);
                    for (size_t r = 0; r < count; ++r) {
                      const size_t y = static_cast<size_t>(rows.first[i]) + r * row_dilation;
                      const double* next = row_sums.data() + y * out_columns;
                      for (size_t j = 0; j < out_columns; ++j) sums[j] += next[j];
                    }
                    const double* divisor = divisors.data() + i * out_columns;
                    T* target = result + i * out_columns;
                    for (size_t j = 0; j < out_columns; ++j) {
                      target[j] = static_cast<T>(sums[j] / divisor[j]);
                    }
                  }
                }
              });
}

// The mean of the taps inside the input, or with count_include_pad of the taps inside the
// padded input (the ceil_mode overhang never counts). Accumulated in double.
Status runAveragePool(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  Result<nn::Window> window = nn::poolWindow(ctx, *x, ctx.opset() >= 19);
  if (!window) return window.status();
  const nn::Window& w = *window;
  bool include_pad = ctx.intAttribute("count_include_pad").value_or(0) != 0;
  Array xs = widenToFloat(*x);
  Result<Array> made = Array::allocate(xs.type(), nn::poolOutputShape(*x, w));
  if (!made) return made.status();
  Array y = std::move(*made);
  size_t planes = static_cast<size_t>(x->dim(0) * x->dim(1));
  size_t volume = w.imageVolume();
  size_t outputs = w.columnVolume();
  bool ok = dispatchFloat(xs.type(), [&]<class T>() {
    const T* in = xs.data<T>();
    T* out = y.data<T>();
    if (w.rank() == 2) {
      averagePool2d(ctx, w, planes, include_pad, in, out);
      return;
    }
    nn::forEachPoolWindow(ctx, w, planes, [&](size_t plane, size_t p, const nn::PoolTaps& taps) {
      const T* image = in + plane * volume;
      double sum = 0;
      taps.each([&](int64_t offset) { sum += static_cast<double>(image[offset]); });
      double count = include_pad ? taps.padded : static_cast<double>(taps.valid());
      out[plane * outputs + p] = static_cast<T>(sum / count);
    });
  });
  if (!ok) return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(y, x->type()));
  return Status::ok();
}

// Down to a version without the int attribute `name`: a node crosses when it leaves it at
// `fallback`, the one behaviour the older version has.
Status dropIntAttribute(NodeDraft& draft, std::string_view name, int64_t fallback) {
  if (draft.attribute(name) == nullptr) return Status::ok();
  if (draft.intAttr(name) != fallback) {
    return draft.refuse(std::string(name) + " other than " + std::to_string(fallback) +
                        " has no form in version " + std::to_string(draft.to().since_version));
  }
  draft.removeAttribute(name);
  return Status::ok();
}

Status dropCountIncludePad(NodeDraft& draft) {
  return dropIntAttribute(draft, "count_include_pad", 0);
}

Status dropCeilMode(NodeDraft& draft) { return dropIntAttribute(draft, "ceil_mode", 0); }

// Down from version 19: only dilations of 1, which is what the older versions do.
Status dropUnitDilations(NodeDraft& draft) {
  if (draft.attribute("dilations") == nullptr) return Status::ok();
  std::optional<std::vector<int64_t>> dilations = draft.intsAttr("dilations");
  if (!dilations || std::any_of(dilations->begin(), dilations->end(),
                                [](int64_t dilation) { return dilation != 1; })) {
    return draft.refuse("dilations other than 1 have no form in version " +
                        std::to_string(draft.to().since_version));
  }
  draft.removeAttribute("dilations");
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes10 = {attr("auto_pad", "NOTSET"),   attr("ceil_mode", 0),
                                      attr("count_include_pad", 0), required("kernel_shape", kInts),
                                      attr("pads", kInts),          attr("strides", kInts)};
constexpr Attributes kAttributes19 = {attr("auto_pad", "NOTSET"),      attr("ceil_mode", 0),
                                      attr("count_include_pad", 0),    attr("dilations", kInts),
                                      required("kernel_shape", kInts), attr("pads", kInts),
                                      attr("strides", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kAveragePool;
constexpr Operator kAveragePool{
    .domain = kOnnxDomain,
    .name = "AveragePool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("auto_pad", "NOTSET"), required("kernel_shape", kInts),
                        attr("pads", kInts), attr("strides", kInts)},
         .constraints = kConstraints1,
         .infer = inferAveragePool,
         .kernel = runAveragePool},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("auto_pad", "NOTSET"), attr("count_include_pad", 0),
                        required("kernel_shape", kInts), attr("pads", kInts),
                        attr("strides", kInts)},
         .constraints = kConstraints1,
         .infer = inferAveragePool,
         .kernel = runAveragePool,
         .step = {.reviewed = true,
                  .change = "count_include_pad added (0: the divisor excludes pads, as before)",
                  .down = dropCountIncludePad,
                  .down_refuses = "count_include_pad other than 0"}},
        {.since_version = 10,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes10,
         .constraints = kConstraints1,
         .infer = inferAveragePool,
         .kernel = runAveragePool,
         .step = {.reviewed = true,
                  .change = "ceil_mode added (0: floor, as before)",
                  .down = dropCeilMode,
                  .down_refuses = "ceil_mode other than 0"}},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes10,
         .constraints = kConstraints1,
         .infer = inferAveragePool,
         .kernel = runAveragePool,
         .step = {.reviewed = true, .change = "strides default of 1 documented"}},
        {.since_version = 19,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes19,
         .constraints = kConstraints1,
         .infer = inferAveragePool19,
         .kernel = runAveragePool,
         .step = {.reviewed = true,
                  .change = "dilations added (1: as before)",
                  .down = dropUnitDilations,
                  .down_refuses = "dilations other than 1"}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes19,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferAveragePool19,
         .kernel = runAveragePool,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kAveragePool));

}  // namespace onyx::ops::ai_onnx
