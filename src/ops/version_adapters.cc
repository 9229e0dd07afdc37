#include "ops/version_adapters.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ir/tensor_array.h"

namespace onyx::ops {

Status dropConsumedInputs(NodeDraft& draft) {
  draft.removeAttribute("consumed_inputs");
  return Status::ok();
}

Status legacyBroadcastToNumpy(NodeDraft& draft) {
  bool broadcast = draft.intAttr("broadcast").value_or(0) != 0;
  std::optional<int64_t> axis = draft.intAttr("axis");
  draft.removeAttribute("broadcast");
  draft.removeAttribute("axis");
  if (!broadcast || !axis) return Status::ok();
  std::optional<std::vector<Extent>> a = draft.inputShape(0);
  std::optional<std::vector<Extent>> b = draft.inputShape(1);
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

Status numpyBroadcastToLegacy(NodeDraft& draft) {
  std::optional<std::vector<Extent>> a = draft.inputShape(0);
  std::optional<std::vector<Extent>> b = draft.inputShape(1);
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

Status requireOneShape(NodeDraft& draft) {
  std::optional<std::vector<Extent>> first = draft.inputShape(0);
  for (size_t i = 1; i < draft.inputCount(); ++i) {
    std::optional<std::vector<Extent>> other = draft.inputShape(i);
    if (!first || !other || other->size() != first->size() ||
        !std::equal(first->begin(), first->end(), other->begin(), sameExtent)) {
      return draft.refuse(
          "inputs not known to share one shape; the older version does not "
          "broadcast");
    }
  }
  return Status::ok();
}

Status axisFromFront(NodeDraft& draft) {
  if (draft.attribute("axis") == nullptr) return Status::ok();
  std::optional<int64_t> axis = draft.intAttr("axis");
  if (!axis) return draft.refuse("axis has no value of its own");
  if (*axis >= 0) return Status::ok();
  std::optional<int64_t> rank = draft.inputRank(0);
  if (!rank) return draft.refuse("axis is negative and the input's rank is unknown");
  draft.setIntAttr("axis", *axis + *rank);
  return Status::ok();
}

Status axesFromFront(NodeDraft& draft) {
  const Attribute* attribute = draft.attribute("axes");
  if (attribute == nullptr) return Status::ok();
  std::optional<std::vector<int64_t>> axes = draft.intsAttr("axes");
  if (!axes || attribute->isReference()) return draft.refuse("axes has no value of its own");
  if (std::none_of(axes->begin(), axes->end(), [](int64_t axis) { return axis < 0; })) {
    return Status::ok();
  }
  std::optional<int64_t> rank = draft.inputRank(0);
  if (!rank) return draft.refuse("an axis is negative and the input's rank is unknown");
  for (int64_t& axis : *axes) {
    if (axis < 0) axis += *rank;
  }
  draft.setIntsAttr("axes", *axes);
  return Status::ok();
}

Status axesAttributeToInput(NodeDraft& draft) {
  const Attribute* attribute = draft.attribute("axes");
  if (attribute == nullptr) return Status::ok();
  std::optional<std::vector<int64_t>> axes = draft.intsAttr("axes");
  if (!axes || attribute->isReference()) return draft.refuse("axes has no value of its own");
  draft.removeAttribute("axes");
  if (!axes->empty()) draft.setIntegersInput(1, *axes);
  return Status::ok();
}

Status axesInputToAttribute(NodeDraft& draft) {
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

}  // namespace onyx::ops
