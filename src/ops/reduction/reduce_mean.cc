// ReduceMean (ai.onnx), versions 1, 11, 13, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/type.h"
#include "ops/lib/reduce_kernels.h"
#include "ops/node_draft.h"
#include "ops/reduction/reduce_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferReduceAttribute(InferenceContext& ctx) { inferReduceAxesAttribute(ctx); }
void inferReduceInput(InferenceContext& ctx) { inferReduceAxesInput(ctx); }

Status runReduceMean(KernelContext& ctx) { return runReduction<ReduceKind::kMean>(ctx); }

// The rank of input `i` from its type or, for a constant, its dims.
std::optional<int64_t> inputRank(const NodeDraft& draft, size_t i) {
  if (const Type* type = draft.inputType(i); type != nullptr && type->shape != nullptr) {
    return static_cast<int64_t>(type->shape->rank());
  }
  if (const Tensor* constant = draft.constantInput(i); constant != nullptr) {
    return static_cast<int64_t>(constant->dims.size());
  }
  return std::nullopt;
}

// Down to version 1, which does not count axes from the back: a negative axis becomes
// axis + rank, so the input's rank must be known.
Status axesFromFront(NodeDraft& draft) {
  const Attribute* attribute = draft.attribute("axes");
  if (attribute == nullptr) return Status::ok();
  std::optional<std::vector<int64_t>> axes = draft.intsAttr("axes");
  if (!axes || attribute->isReference()) return draft.refuse("axes has no value of its own");
  if (std::none_of(axes->begin(), axes->end(), [](int64_t axis) { return axis < 0; })) {
    return Status::ok();
  }
  std::optional<int64_t> rank = inputRank(draft, 0);
  if (!rank) return draft.refuse("an axis is negative and the input's rank is unknown");
  for (int64_t& axis : *axes) {
    if (axis < 0) axis += *rank;
  }
  draft.setIntsAttr("axes", *axes);
  return Status::ok();
}

// Up to the version that takes axes as input 1. No axes, or an empty list, reduces over all
// axes in both versions (noop_with_empty_axes is 0 by default).
Status axesToInput(NodeDraft& draft) {
  const Attribute* attribute = draft.attribute("axes");
  if (attribute == nullptr) return Status::ok();
  std::optional<std::vector<int64_t>> axes = draft.intsAttr("axes");
  if (!axes || attribute->isReference()) return draft.refuse("axes has no value of its own");
  draft.removeAttribute("axes");
  if (!axes->empty()) draft.setIntegersInput(1, *axes);
  return Status::ok();
}

// Down to the version that takes axes as an attribute, which has no way to reduce over no
// axes: noop_with_empty_axes must not apply.
Status axesToAttribute(NodeDraft& draft) {
  const Attribute* noop_attribute = draft.attribute("noop_with_empty_axes");
  std::optional<int64_t> noop = draft.intAttr("noop_with_empty_axes");
  if (noop_attribute != nullptr && !noop) {
    return draft.refuse("noop_with_empty_axes has no value of its own");
  }
  std::vector<int64_t> axes;
  if (draft.hasInput(1)) {
    std::optional<std::vector<int64_t>> constant = draft.constantIntegers(1);
    if (!constant) return draft.refuse("axes is not a constant input");
    axes = std::move(*constant);
  }
  if (axes.empty() && noop.value_or(0) != 0) {
    return draft.refuse("noop_with_empty_axes with no axes (the identity)");
  }
  draft.removeAttribute("noop_with_empty_axes");
  if (!axes.empty()) draft.setIntsAttr("axes", axes);
  draft.resizeInputs(1);
  return Status::ok();
}

}  // namespace

constexpr TypeSet kTTypes1 = tensor("uint32 uint64 int32 int64 float16 float double");
constexpr TypeSet kTTypes13 = tensor("uint32 uint64 int32 int64 float16 float double bfloat16");
constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kOutputs1 = {{"reduced", "T"}};
constexpr Attributes kAttributes1 = {attr("axes", kInts), attr("keepdims", 1)};
constexpr Constraints kConstraints1 = {{"T", kTTypes1}};

extern const Operator kReduceMean;
constexpr Operator kReduceMean{
    .domain = kOnnxDomain,
    .name = "ReduceMean",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferReduceAttribute,
         .kernel = runReduceMean},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferReduceAttribute,
         .kernel = runReduceMean,
         .step = {.reviewed = true,
                  .change = "negative axes allowed",
                  .down = axesFromFront,
                  .down_refuses = "negative axes, input rank unknown"}},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", kTTypes13}},
         .infer = inferReduceAttribute,
         .kernel = runReduceMean,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 18,
         .inputs = {{"data", "T"}, optional("axes", "tensor(int64)")},
         .outputs = kOutputs1,
         .attributes = {attr("keepdims", 1), attr("noop_with_empty_axes", 0)},
         .constraints = {{"T", kTTypes13}, {"tensor(int64)", tensor("int64")}},
         .infer = inferReduceInput,
         .kernel = runReduceMean,
         .step = {.reviewed = true,
                  .change = "axes became an input; noop_with_empty_axes added",
                  .up = axesToInput,
                  .down = axesToAttribute,
                  .down_refuses = "axes not a constant; noop_with_empty_axes with no axes"}},
    }};
static_assert(isWellFormed(kReduceMean));

}  // namespace onyx::ops::ai_onnx
