// Unsqueeze (ai.onnx), versions 1, 11, 13, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Axes are an attribute before version 13 and an input from 13; they index the output.
void inferUnsqueeze(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  IntList axes = intList(ctx, 1, ctx.schema().since_version < 13 ? "axes" : "");
  if (in == nullptr) return;
  if (!axes.known) {
    // Axes unknown but their count known: the rank is, not which dimensions are 1.
    if (const Dims* count = ctx.inputShape(1);
        axes.given && count != nullptr && count->size() == 1 && count->front().isKnown() &&
        count->front().value() >= 0 && count->front().value() <= 1024) {
      ctx.setOutputShape(0,
                         freshDims(ctx, in->size() + static_cast<size_t>(count->front().value())));
    }
    return;
  }
  size_t rank = in->size() + axes.values.size();
  std::optional<std::vector<size_t>> normalized = normalizeAxes(ctx, axes.values, rank);
  if (!normalized) return;
  std::vector<bool> inserted(rank, false);
  for (size_t axis : *normalized) inserted[axis] = true;
  Dims out;
  out.reserve(rank);
  size_t next = 0;
  for (size_t i = 0; i < rank; ++i) {
    out.push_back(inserted[i] ? DimValue::known(1) : (*in)[next++]);
  }
  ctx.setOutputShape(0, std::move(out));
  if (const Dims* data = ctx.inputData(0); data != nullptr && rank <= 1) {
    ctx.setOutputData(0, *data);
  }
}

Status runUnsqueeze(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  Result<std::optional<std::vector<int64_t>>> axes =
      intListOf(ctx, 1, ctx.schema().since_version < 13 ? "axes" : "");
  if (!axes) return axes.status();
  if (!*axes) return ctx.fail("needs axes");
  size_t rank = data->rank() + (*axes)->size();
  Result<std::vector<size_t>> normal = kernelAxes(ctx, **axes, rank);
  if (!normal) return normal.status();
  std::vector<bool> inserted(rank, false);
  for (size_t axis : *normal) inserted[axis] = true;
  std::vector<int64_t> shape;
  shape.reserve(rank);
  size_t next = 0;
  for (size_t i = 0; i < rank; ++i) shape.push_back(inserted[i] ? 1 : data->dim(next++));
  ctx.setOutput(0, data->reshaped(std::move(shape)));
  return Status::ok();
}

// Down to version 1, whose axes are 0 or more: a negative axis becomes axis + the output's
// rank (the input's and one per axis), so the input's rank must be known.
Status axesFromFront(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> axes = draft.intsAttr("axes");
  if (!axes) return draft.refuse("axes is missing or not a list of ints");
  if (std::none_of(axes->begin(), axes->end(), [](int64_t axis) { return axis < 0; })) {
    return Status::ok();
  }
  std::optional<int64_t> rank = draft.inputRank(0);
  if (!rank) return draft.refuse("an axis is negative and the input's rank is unknown");
  const int64_t out_rank = *rank + static_cast<int64_t>(axes->size());
  for (int64_t& axis : *axes) axis = axis < 0 ? axis + out_rank : axis;
  draft.setIntsAttr("axes", *axes);
  return Status::ok();
}

// Up to version 13, where axes is an input.
Status axesToInput(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> axes = draft.intsAttr("axes");
  if (!axes) return draft.refuse("axes is missing or not a list of ints");
  draft.removeAttribute("axes");
  draft.setIntegersInput(1, *axes);
  return Status::ok();
}

// Down to version 11, where axes is an attribute: the input must be a constant.
Status axesToAttribute(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> axes = draft.constantIntegers(1);
  if (!axes) return draft.refuse("axes is not a constant");
  draft.setIntsAttr("axes", *axes);
  draft.resizeInputs(1);
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kInputs13 = {{"data", "T"}, {"axes", "tensor(int64)"}};
constexpr Formals kOutputs1 = {{"expanded", "T"}};
constexpr Attributes kAttributes1 = {required("axes", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor(kIr3Types)}};

extern const Operator kUnsqueeze;
constexpr Operator kUnsqueeze{
    .domain = kOnnxDomain,
    .name = "Unsqueeze",
    .versions = {
        {.since_version = 1,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferUnsqueeze,
         .kernel = runUnsqueeze},
        {.since_version = 11,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferUnsqueeze,
         .kernel = runUnsqueeze,
         .step = {.reviewed = true,
                  .change = "negative axes allowed",
                  .down = axesFromFront,
                  .down_refuses = "negative axes, input rank unknown"}},
        {.since_version = 13,
         .traits = kShapeOnly,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferUnsqueeze,
         .kernel = runUnsqueeze,
         .step = {.reviewed = true,
                  .change = "axes became an input; bfloat16 added",
                  .up = axesToInput,
                  .down = axesToAttribute,
                  .down_refuses = "axes not a constant"}},
        {.since_version = 21,
         .traits = kShapeOnly,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr10Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferUnsqueeze,
         .kernel = runUnsqueeze,
         .step = typesOnly("float8 types, int4 and uint4 added")},
        {.since_version = 23,
         .traits = kShapeOnly,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr11Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferUnsqueeze,
         .kernel = runUnsqueeze,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .traits = kShapeOnly,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr12Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferUnsqueeze,
         .kernel = runUnsqueeze,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .traits = kShapeOnly,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr13Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferUnsqueeze,
         .kernel = runUnsqueeze,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kUnsqueeze));

}  // namespace onyx::ops::ai_onnx
