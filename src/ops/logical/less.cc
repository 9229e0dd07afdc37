// Less (ai.onnx), versions 1, 7, 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/type.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runLess(KernelContext& ctx) {
  return elementwise::compareKernel(ctx, [](auto a, auto b) { return a < b; });
}

// One dimension as the model gives it: a number, a symbol (one size wherever it appears), or
// neither.
struct Extent {
  std::optional<int64_t> value;
  std::string_view symbol;
};

bool sameExtent(const Extent& a, const Extent& b) {
  if (a.value || b.value) return a.value == b.value;
  return !a.symbol.empty() && a.symbol == b.symbol;
}

bool allOnes(const std::vector<Extent>& shape) {
  return std::all_of(shape.begin(), shape.end(),
                     [](const Extent& extent) { return extent.value == int64_t{1}; });
}

// The shape of input `i` from its type or, for a constant, its dims; nullopt when not even
// the rank is known.
std::optional<std::vector<Extent>> inputShape(const NodeDraft& draft, size_t i) {
  std::vector<Extent> shape;
  if (const Type* type = draft.inputType(i); type != nullptr && type->shape != nullptr) {
    for (const Dimension& dim : type->shape->dims) {
      shape.push_back({dim.dim_value, dim.dim_param.value_or(std::string_view())});
    }
    return shape;
  }
  if (const Tensor* constant = draft.constantInput(i); constant != nullptr) {
    for (int64_t dim : constant->dims) shape.push_back({dim, {}});
    return shape;
  }
  return std::nullopt;
}

// Up to version 7, which broadcasts both ways as numpy does and so lines B up with A's last
// dimensions; version 1 stretches B over A from `axis` on. Where the two differ, a constant B
// takes the trailing 1s that make them agree; any other B would need an Unsqueeze node.
Status toNumpyBroadcast(NodeDraft& draft) {
  bool broadcast = draft.intAttr("broadcast").value_or(0) != 0;
  std::optional<int64_t> axis = draft.intAttr("axis");
  draft.removeAttribute("broadcast");
  draft.removeAttribute("axis");
  if (!broadcast || !axis) return Status::ok();
  std::optional<std::vector<Extent>> a = inputShape(draft, 0);
  std::optional<std::vector<Extent>> b = inputShape(draft, 1);
  if (b && allOnes(*b)) return Status::ok();
  if (!a || !b) return draft.refuse("the inputs' ranks are unknown, so where axis puts B is too");
  const auto rank = static_cast<int64_t>(a->size());
  int64_t start = *axis < 0 ? *axis + rank : *axis;
  int64_t trailing = rank - start - static_cast<int64_t>(b->size());
  if (start < 0 || trailing < 0) return draft.refuse("axis puts B outside A");
  if (trailing == 0) return Status::ok();
  const Tensor* constant = draft.constantInput(1);
  if (constant == nullptr) {
    return draft.refuse("axis lines B up before A's last dimensions and B is not a constant");
  }
  Result<Array> values = arrayFromTensor(*constant);
  if (!values) return draft.refuse("B's constant cannot be read");
  std::vector<int64_t> shape = values->shape();
  shape.insert(shape.end(), static_cast<size_t>(trailing), 1);
  draft.setConstantInput(1, draft.editor().tensorFromArray(values->reshaped(std::move(shape))));
  return Status::ok();
}

// Down to version 1, which stretches only B, over A, and only when B has A's last dimensions
// or one element; equal shapes need no broadcast.
Status toLegacyBroadcast(NodeDraft& draft) {
  std::optional<std::vector<Extent>> a = inputShape(draft, 0);
  std::optional<std::vector<Extent>> b = inputShape(draft, 1);
  if (!a || !b) return draft.refuse("the inputs' shapes are unknown");
  if (b->size() > a->size()) return draft.refuse("B has more dimensions than A");
  size_t offset = a->size() - b->size();
  bool trailing =
      std::equal(b->begin(), b->end(), a->begin() + static_cast<ptrdiff_t>(offset), sameExtent);
  if (trailing && offset == 0) return Status::ok();
  if (!trailing && !allOnes(*b)) {
    return draft.refuse("B is not known to be A's last dimensions or one element");
  }
  draft.setIntAttr("broadcast", 1);
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"C", "T1"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")},
                                       {"T1", tensor("bool")}};

extern const Operator kLess;
constexpr Operator kLess{
    .domain = kOnnxDomain,
    .name = "Less",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runLess},
        {.since_version = 7,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferBroadcast,
         .kernel = runLess,
         .step = {.reviewed = true,
                  .change = "numpy broadcasting replaces broadcast/axis",
                  .up = toNumpyBroadcast,
                  .down = toLegacyBroadcast,
                  .up_refuses = "axis off A's last dimensions, B not a constant",
                  .down_refuses =
                      "B not known to be A's shape, its last dimensions or one element"}},
        {.since_version = 9,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"T1", tensor("bool")}},
         .infer = inferBroadcast,
         .kernel = runLess,
         .step = typesOnly("integer types added")},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")},
                         {"T1", tensor("bool")}},
         .infer = inferBroadcast,
         .kernel = runLess,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kLess));

}  // namespace onyx::ops::ai_onnx
