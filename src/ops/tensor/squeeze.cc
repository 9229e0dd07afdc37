// Squeeze (ai.onnx), versions 1, 11, 13, 21, 23, 24, 25.
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

// Axes are an attribute before version 13 and an input from 13. Without axes every
// dimension of 1 goes, which needs every dimension known.
void inferSqueeze(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  IntList axes = intList(ctx, 1, ctx.schema().since_version < 13 ? "axes" : "");
  if (axes.given && !axes.known) {
    // Axes unknown but their count known: the rank is, not which dimensions remain.
    if (const Dims* count = ctx.inputShape(1);
        count != nullptr && count->size() == 1 && count->front().isKnown() &&
        count->front().value() >= 0 && count->front().value() <= static_cast<int64_t>(in->size())) {
      ctx.setOutputShape(0,
                         freshDims(ctx, in->size() - static_cast<size_t>(count->front().value())));
    }
    return;
  }
  std::vector<bool> removed(in->size(), false);
  if (axes.given) {
    std::optional<std::vector<size_t>> normalized = normalizeAxes(ctx, axes.values, in->size());
    if (!normalized) return;
    for (size_t axis : *normalized) {
      DimValue dim = (*in)[axis];
      if (dim.isKnown() && dim.value() != 1) {
        ctx.fail("Squeeze's axis " + std::to_string(axis) + " has dimension " +
                 std::to_string(dim.value()) + ", not 1");
        return;
      }
      removed[axis] = true;
    }
  } else {
    for (size_t i = 0; i < in->size(); ++i) {
      if (!(*in)[i].isKnown()) return;
      removed[i] = (*in)[i].is(1);
    }
  }
  Dims out;
  out.reserve(in->size());
  for (size_t i = 0; i < in->size(); ++i) {
    if (!removed[i]) out.push_back((*in)[i]);
  }
  bool carry = out.size() <= 1;
  ctx.setOutputShape(0, std::move(out));
  if (const Dims* data = ctx.inputData(0); data != nullptr && carry) ctx.setOutputData(0, *data);
}

Status runSqueeze(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  Result<std::optional<std::vector<int64_t>>> axes =
      intListOf(ctx, 1, ctx.schema().since_version < 13 ? "axes" : "");
  if (!axes) return axes.status();
  size_t rank = data->rank();
  std::vector<bool> removed(rank, false);
  if (*axes) {
    Result<std::vector<size_t>> normal = kernelAxes(ctx, **axes, rank);
    if (!normal) return normal.status();
    for (size_t axis : *normal) {
      if (data->dim(axis) != 1) {
        return ctx.fail("axis " + std::to_string(axis) + " has dimension " +
                        std::to_string(data->dim(axis)) + ", not 1");
      }
      removed[axis] = true;
    }
  } else {
    for (size_t i = 0; i < rank; ++i) removed[i] = data->dim(i) == 1;
  }
  std::vector<int64_t> shape;
  for (size_t i = 0; i < rank; ++i) {
    if (!removed[i]) shape.push_back(data->dim(i));
  }
  ctx.setOutput(0, data->reshaped(std::move(shape)));
  return Status::ok();
}

// Down to version 1, whose axes are 0 or more: a negative axis becomes axis + rank, so the
// input's rank must be known.
Status axesFromFront(NodeDraft& draft) {
  if (draft.attribute("axes") == nullptr) return Status::ok();
  std::optional<std::vector<int64_t>> axes = draft.intsAttr("axes");
  if (!axes) return draft.refuse("axes is not a list of ints");
  if (std::none_of(axes->begin(), axes->end(), [](int64_t axis) { return axis < 0; })) {
    return Status::ok();
  }
  std::optional<int64_t> rank = draft.inputRank(0);
  if (!rank) return draft.refuse("an axis is negative and the input's rank is unknown");
  for (int64_t& axis : *axes) axis = axis < 0 ? axis + *rank : axis;
  draft.setIntsAttr("axes", *axes);
  return Status::ok();
}

// Up to version 13, where axes is an input.
Status axesToInput(NodeDraft& draft) {
  if (draft.attribute("axes") == nullptr) return Status::ok();
  std::optional<std::vector<int64_t>> axes = draft.intsAttr("axes");
  if (!axes) return draft.refuse("axes is not a list of ints");
  draft.removeAttribute("axes");
  draft.setIntegersInput(1, *axes);
  return Status::ok();
}

// Down to version 11, where axes is an attribute: the input must be a constant.
Status axesToAttribute(NodeDraft& draft) {
  if (draft.hasInput(1)) {
    std::optional<std::vector<int64_t>> axes = draft.constantIntegers(1);
    if (!axes) return draft.refuse("axes is not a constant");
    draft.setIntsAttr("axes", *axes);
  }
  draft.resizeInputs(1);
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kInputs13 = {{"data", "T"}, optional("axes", "tensor(int64)")};
constexpr Formals kOutputs1 = {{"squeezed", "T"}};
constexpr Attributes kAttributes1 = {attr("axes", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor(kIr3Types)}};

extern const Operator kSqueeze;
constexpr Operator kSqueeze{
    .domain = kOnnxDomain,
    .name = "Squeeze",
    .versions = {
        {.since_version = 1,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferSqueeze,
         .kernel = runSqueeze},
        {.since_version = 11,
         .traits = kShapeOnly,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferSqueeze,
         .kernel = runSqueeze,
         .step = {.reviewed = true,
                  .change = "negative axes allowed",
                  .down = axesFromFront,
                  .down_refuses = "negative axes, input rank unknown"}},
        {.since_version = 13,
         .traits = kShapeOnly,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferSqueeze,
         .kernel = runSqueeze,
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
         .infer = inferSqueeze,
         .kernel = runSqueeze,
         .step = typesOnly("float8 types, int4 and uint4 added")},
        {.since_version = 23,
         .traits = kShapeOnly,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr11Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferSqueeze,
         .kernel = runSqueeze,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .traits = kShapeOnly,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr12Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferSqueeze,
         .kernel = runSqueeze,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .traits = kShapeOnly,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr13Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferSqueeze,
         .kernel = runSqueeze,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kSqueeze));

}  // namespace onyx::ops::ai_onnx
