// Slice (ai.onnx), versions 1, 10, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// At or past this, an end (or a start, negated) means "to the end of the axis": no
// dimension is this large, so the slice's length does not depend on the dimension's value.
constexpr int64_t kOpenBound = INT32_MAX;

// The length of slicing a symbolic dimension `size`, when it is an expression of `size`
// that holds for every size at least the bounds: [s:] is size-s, [-k:] is k, [s:-k] is
// size-k-s, [-a:-b] is a-b; reversing all of it is size. Otherwise a fresh dimension.
DimValue symbolicSliceLength(InferenceContext& ctx, DimValue size, DimValue start_value,
                             DimValue end_value, int64_t step) {
  SymbolicDims& dims = ctx.dims();
  if (step == 1 && start_value.isKnown() && end_value == size && start_value.value() >= 0) {
    return dims.subtract(size, start_value);
  }
  if (!start_value.isKnown() || !end_value.isKnown()) return dims.fresh();
  int64_t start = start_value.value();
  int64_t end = end_value.value();
  if (step == 1) {
    if (start <= -kOpenBound) start = 0;
    bool open_end = end >= kOpenBound;
    if (start >= 0 && open_end) {
      return dims.subtract(size, DimValue::known(start));
    }
    if (start < 0 && open_end) return DimValue::known(-start);
    if (start >= 0 && end < 0 && end > -kOpenBound) {
      return dims.subtract(size, DimValue::known(start - end));
    }
    if (start < 0 && end < 0 && end > -kOpenBound) {
      return DimValue::known(std::max<int64_t>(0, end - start));
    }
  } else if (step == -1 && (start == -1 || start >= kOpenBound) && end <= -kOpenBound) {
    return size;
  }
  return dims.fresh();
}

// Slice-1 takes starts, ends and axes as attributes; Slice-10 and later as inputs, with
// steps.
void inferSlice(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  bool attributes = ctx.schema().since_version < 10;
  const Dims* starts = attributes ? nullptr : ctx.inputData(1);
  const Dims* ends = attributes ? nullptr : ctx.inputData(2);
  Dims start_attribute, end_attribute;
  if (attributes) {
    std::optional<std::vector<int64_t>> s = ctx.intsAttribute("starts");
    std::optional<std::vector<int64_t>> e = ctx.intsAttribute("ends");
    if (!s || !e) return;
    for (int64_t v : *s) start_attribute.push_back(DimValue::known(v));
    for (int64_t v : *e) end_attribute.push_back(DimValue::known(v));
    starts = &start_attribute;
    ends = &end_attribute;
  }
  IntList axes =
      intList(ctx, attributes ? std::nullopt : std::optional<size_t>(3), attributes ? "axes" : "");
  IntList steps = intList(ctx, attributes ? std::nullopt : std::optional<size_t>(4), "");
  if (starts == nullptr || ends == nullptr || (axes.given && !axes.known) ||
      (steps.given && !steps.known)) {
    // Which axes change is unknown: the rank stays, every dimension may change.
    ctx.setOutputRank(0, in->size());
    return;
  }
  size_t count = starts->size();
  if (ends->size() != count || (axes.given && axes.values.size() != count) ||
      (steps.given && steps.values.size() != count)) {
    ctx.fail("Slice's starts, ends, axes and steps have different lengths (" +
             std::to_string(count) + " starts, " + std::to_string(ends->size()) + " ends)");
    return;
  }
  std::vector<size_t> axis_of(count);
  if (axes.given) {
    std::optional<std::vector<size_t>> normalized = normalizeAxes(ctx, axes.values, in->size());
    if (!normalized) return;
    axis_of = std::move(*normalized);
  } else {
    if (count > in->size()) {
      ctx.fail("Slice has " + std::to_string(count) + " starts for an input of rank " +
               std::to_string(in->size()));
      return;
    }
    for (size_t i = 0; i < count; ++i) axis_of[i] = i;
  }
  Dims out = *in;
  // The data's one axis, when it is a propagated vector: first index and step.
  std::optional<SliceRange> data_range;
  int64_t data_step = 1;
  bool data_sliced = false;
  for (size_t i = 0; i < count; ++i) {
    int64_t step = steps.given ? steps.values[i] : 1;
    if (step == 0) {
      ctx.fail("Slice's step " + std::to_string(i) + " is 0");
      return;
    }
    size_t axis = axis_of[i];
    DimValue size = (*in)[axis];
    DimValue start = (*starts)[i];
    DimValue end = (*ends)[i];
    if (size.isKnown() && start.isKnown() && end.isKnown()) {
      SliceRange range = sliceRange(size.value(), start.value(), end.value(), step);
      out[axis] = DimValue::known(range.length);
      if (axis == 0) {
        data_range = range;
        data_step = step;
      }
    } else {
      out[axis] = symbolicSliceLength(ctx, size, start, end, step);
    }
    if (axis == 0) data_sliced = true;
  }
  const Dims* data = ctx.inputData(0);
  bool carry = data != nullptr && in->size() == 1 && (!data_sliced || data_range);
  ctx.setOutputShape(0, std::move(out));
  if (!carry) return;
  if (!data_sliced) {
    ctx.setOutputData(0, *data);
    return;
  }
  Dims picked;
  picked.reserve(static_cast<size_t>(data_range->length));
  for (int64_t k = 0; k < data_range->length; ++k) {
    int64_t index = data_range->first + k * data_step;
    if (index < 0 || index >= static_cast<int64_t>(data->size())) return;
    picked.push_back((*data)[static_cast<size_t>(index)]);
  }
  ctx.setOutputData(0, std::move(picked));
}

Status runSlice(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  bool attributes = ctx.schema().since_version < 10;
  std::optional<size_t> none;
  Result<std::optional<std::vector<int64_t>>> starts =
      intListOf(ctx, attributes ? none : std::optional<size_t>(1), attributes ? "starts" : "");
  if (!starts) return starts.status();
  Result<std::optional<std::vector<int64_t>>> ends =
      intListOf(ctx, attributes ? none : std::optional<size_t>(2), attributes ? "ends" : "");
  if (!ends) return ends.status();
  Result<std::optional<std::vector<int64_t>>> axes =
      intListOf(ctx, attributes ? none : std::optional<size_t>(3), attributes ? "axes" : "");
  if (!axes) return axes.status();
  Result<std::optional<std::vector<int64_t>>> steps =
      intListOf(ctx, attributes ? none : std::optional<size_t>(4), "");
  if (!steps) return steps.status();
  if (!*starts || !*ends) return ctx.fail("needs starts and ends");
  size_t count = (*starts)->size();
  if ((*ends)->size() != count) return ctx.fail("starts and ends differ in length");
  std::vector<int64_t> axis_list;
  if (*axes) {
    axis_list = **axes;
    if (axis_list.size() != count) return ctx.fail("axes and starts differ in length");
  } else {
    for (size_t i = 0; i < count; ++i) axis_list.push_back(static_cast<int64_t>(i));
  }
  std::vector<int64_t> step_list(count, 1);
  if (*steps) {
    step_list = **steps;
    if (step_list.size() != count) return ctx.fail("steps and starts differ in length");
  }
  size_t rank = data->rank();
  Result<std::vector<size_t>> normal = kernelAxes(ctx, axis_list, rank);
  if (!normal) return normal.status();
  std::vector<int64_t> in_strides = denseStrides(data->shape());
  std::vector<int64_t> shape = data->shape();
  StridedView source{0, in_strides};
  for (size_t i = 0; i < count; ++i) {
    size_t axis = (*normal)[i];
    int64_t step = step_list[i];
    if (step == 0) return ctx.fail("steps[" + std::to_string(i) + "] is 0");
    SliceRange range = sliceRange(data->dim(axis), (**starts)[i], (**ends)[i], step);
    shape[axis] = range.length;
    if (range.length > 0) {
      source.offset += range.first * in_strides[axis];
      // A step past the axis takes one element; its stride is then never used.
      source.strides[axis] = range.length > 1 ? in_strides[axis] * step : in_strides[axis];
    }
  }
  Array out(data->type(), shape);
  copyOut(ctx, shape, *data, std::move(source), out);
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

// Up to version 10, where starts, ends and axes are inputs.
Status attributesToInputs(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> starts = draft.intsAttr("starts");
  std::optional<std::vector<int64_t>> ends = draft.intsAttr("ends");
  if (!starts || !ends) return draft.refuse("starts or ends is missing or not a list of ints");
  std::optional<std::vector<int64_t>> axes;
  if (draft.attribute("axes") != nullptr) {
    axes = draft.intsAttr("axes");
    if (!axes) return draft.refuse("axes is not a list of ints");
  }
  draft.removeAttribute("starts");
  draft.removeAttribute("ends");
  draft.removeAttribute("axes");
  draft.setIntegersInput(1, *starts);
  draft.setIntegersInput(2, *ends);
  if (axes) draft.setIntegersInput(3, *axes);
  return Status::ok();
}

// Down to version 1, where starts, ends and axes are attributes and every step is 1: the
// inputs must be constants.
Status inputsToAttributes(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> starts = draft.constantIntegers(1);
  std::optional<std::vector<int64_t>> ends = draft.constantIntegers(2);
  if (!starts || !ends) return draft.refuse("starts or ends is not a constant");
  std::optional<std::vector<int64_t>> axes;
  if (draft.hasInput(3)) {
    axes = draft.constantIntegers(3);
    if (!axes) return draft.refuse("axes is not a constant");
  }
  if (draft.hasInput(4)) {
    std::optional<std::vector<int64_t>> steps = draft.constantIntegers(4);
    if (!steps || std::any_of(steps->begin(), steps->end(), [](int64_t s) { return s != 1; })) {
      return draft.refuse("steps is not a constant of 1s");
    }
  }
  draft.setIntsAttr("starts", *starts);
  draft.setIntsAttr("ends", *ends);
  if (axes) draft.setIntsAttr("axes", *axes);
  draft.resizeInputs(1);
  return Status::ok();
}

// Down to version 10, whose axes are 0 or more: a negative axis becomes axis + rank, so axes
// must be a constant, and the input's rank known when one is negative. The axes keep their
// element type, which starts and ends share.
Status axesFromFront(NodeDraft& draft) {
  if (!draft.hasInput(3)) return Status::ok();
  const Tensor* constant = draft.constantInput(3);
  std::optional<std::vector<int64_t>> axes = draft.constantIntegers(3);
  if (constant == nullptr || !constant->data_type || !axes) {
    return draft.refuse("axes is not a constant");
  }
  if (std::none_of(axes->begin(), axes->end(), [](int64_t axis) { return axis < 0; })) {
    return Status::ok();
  }
  std::optional<int64_t> rank = draft.inputRank(0);
  if (!rank) return draft.refuse("an axis is negative and the input's rank is unknown");
  Array written(static_cast<ElementType>(*constant->data_type),
                {static_cast<int64_t>(axes->size())});
  for (size_t k = 0; k < axes->size(); ++k) {
    int64_t axis = (*axes)[k];
    storeDouble(written, k, static_cast<double>(axis < 0 ? axis + *rank : axis));
  }
  draft.setConstantInput(3, draft.editor().tensorFromArray(written));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs10 = {{"data", "T"},
                               {"starts", "Tind"},
                               {"ends", "Tind"},
                               optional("axes", "Tind"),
                               optional("steps", "Tind")};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Constraints kConstraints10 = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}};

extern const Operator kSlice;
constexpr Operator kSlice{
    .domain = kOnnxDomain,
    .name = "Slice",
    .versions = {
        {.since_version = 1,
         .inputs = {{"data", "T"}},
         .outputs = kOutputs1,
         .attributes = {attr("axes", kInts), required("ends", kInts), required("starts", kInts)},
         .constraints = {{"T", tensor(kIr3Types)}},
         .infer = inferSlice,
         .kernel = runSlice},
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .constraints = kConstraints10,
         .infer = inferSlice,
         .kernel = runSlice,
         .step = {.reviewed = true,
                  .change = "starts, ends and axes became inputs; steps added",
                  .up = attributesToInputs,
                  .down = inputsToAttributes,
                  .down_refuses =
                      "starts, ends or axes not a constant; steps not a constant of 1s"}},
        {.since_version = 11,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .constraints = kConstraints10,
         .infer = inferSlice,
         .kernel = runSlice,
         .step = {.reviewed = true,
                  .change = "negative axes allowed",
                  .down = axesFromFront,
                  .down_refuses = "axes not a constant; negative axes, input rank unknown"}},
        {.since_version = 13,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}},
         .infer = inferSlice,
         .kernel = runSlice,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kSlice));

}  // namespace onyx::ops::ai_onnx
