// CenterCropPad (ai.onnx), versions 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "ops/body_text.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// CenterCropPad as the spec defines it: pad each axis up to `shape` (half before, the rest
// after), then slice the centred window of `shape`; over the listed `axes` when given.
Result<std::string> buildCenterCropPad18(const FunctionBodyContext& context) {
  bool axes = context.attribute("axes") != nullptr;
  body::BodyText out(context, "CenterCropPad");
  out.ints("two", {2});
  if (axes) {
    out.add("axes_input = Constant <value_ints: ints = @axes> ()")
        .add("full_shape = Shape (input_data)")
        .add("x_shape = Gather (full_shape, axes_input)");
  } else {
    out.add("x_shape = Shape (input_data)");
  }
  out.add("padded_shape = Max (x_shape, shape)")
      .add("pad_total = Sub (padded_shape, x_shape)")
      .add("pad_before = Div (pad_total, two)")
      .add("pad_after = Sub (pad_total, pad_before)")
      .add("pads = Concat <axis = 0> (pad_before, pad_after)");
  if (axes) {
    out.add("padded = Pad (input_data, pads, , axes_input)")
        .add("padded_full_shape = Shape (padded)")
        .add("padded_shape_now = Gather (padded_full_shape, axes_input)");
  } else {
    out.add("padded = Pad (input_data, pads)").add("padded_shape_now = Shape (padded)");
  }
  out.add("excess = Sub (padded_shape_now, shape)")
      .add("starts = Div (excess, two)")
      .add("ends = Add (starts, shape)");
  if (axes) {
    out.add("output_data = Slice (padded, starts, ends, axes_input)");
  } else {
    out.add("output_data = Slice (padded, starts, ends)");
  }
  return out.finish();
}

// The axes named by `axes` (all by default) take the sizes of the `shape` input.
void inferCenterCropPad(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  std::vector<size_t> axes(in->size());
  for (size_t i = 0; i < axes.size(); ++i) axes[i] = i;
  if (std::optional<std::vector<int64_t>> given = ctx.intsAttribute("axes")) {
    std::optional<std::vector<size_t>> normalized = normalizeAxes(ctx, *given, in->size());
    if (!normalized) return;
    axes = std::move(*normalized);
  }
  Dims out = *in;
  const Dims* shape = ctx.inputData(1);
  if (shape != nullptr && shape->size() != axes.size()) {
    ctx.fail("CenterCropPad has " + std::to_string(shape->size()) + " sizes for " +
             std::to_string(axes.size()) + " axes");
    return;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    out[axes[i]] = shape != nullptr ? (*shape)[i] : ctx.dims().fresh();
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

extern const Operator kCenterCropPad;
namespace {
Status runCenterCropPad(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* shape_input = ctx.inputArray(1);
  if (data == nullptr || shape_input == nullptr) return ctx.fail("needs input_data and shape");
  std::optional<std::vector<int64_t>> wanted = integersOf(*shape_input);
  if (!wanted || shape_input->rank() != 1) return ctx.fail("shape must be a 1-D integer tensor");
  size_t rank = data->rank();
  std::vector<size_t> axes;
  if (std::optional<std::vector<int64_t>> given = ctx.intsAttribute("axes")) {
    Result<std::vector<size_t>> normal = kernelAxes(ctx, *given, rank);
    if (!normal) return normal.status();
    axes = std::move(*normal);
  } else {
    for (size_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  if (wanted->size() != axes.size()) {
    return ctx.fail("shape has " + std::to_string(wanted->size()) + " entries for " +
                    std::to_string(axes.size()) + " axes");
  }
  std::vector<int64_t> out_shape = data->shape();
  std::vector<int64_t> region = data->shape();
  std::vector<int64_t> crop(rank, 0);
  std::vector<int64_t> pad(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    size_t axis = axes[i];
    int64_t dim = data->dim(axis);
    int64_t size = (*wanted)[i];
    if (size < 0) return ctx.fail("shape has a negative entry");
    out_shape[axis] = size;
    region[axis] = std::min(size, dim);
    if (size < dim) crop[axis] = (dim - size) / 2;
    if (size > dim) pad[axis] = (size - dim) / 2;
  }
  Result<Array> made = newArray(data->type(), out_shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  dispatchStorage(data->type(),
                  [&]<class T>() { std::fill_n(elementsOf<T>(out), out.size(), T{}); });
  std::vector<int64_t> in_strides = denseStrides(data->shape());
  std::vector<int64_t> out_strides = denseStrides(out_shape);
  StridedView source{0, in_strides};
  StridedView target{0, out_strides};
  for (size_t d = 0; d < rank; ++d) {
    source.offset += crop[d] * in_strides[d];
    target.offset += pad[d] * out_strides[d];
  }
  copyStrided(ctx, region, *data, std::move(source), out, std::move(target));
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Operator kCenterCropPad{
    .domain = kOnnxDomain,
    .name = "CenterCropPad",
    .versions = {
        {.since_version = 18,
         .inputs = {{"input_data", "T"}, {"shape", "Tind"}},
         .outputs = {{"output_data", "T"}},
         .attributes = {attr("axes", kInts)},
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}},
         .build_function_body = buildCenterCropPad18,
         .infer = inferCenterCropPad,
         .kernel = runCenterCropPad},
    }};
static_assert(isWellFormed(kCenterCropPad));

}  // namespace onyx::ops::ai_onnx
