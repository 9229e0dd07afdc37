#include "ops/version_adapters.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ir/tensor_array.h"

namespace onyx::ops {

namespace {

// The integers a float holds exactly: |n| <= 2^24.
constexpr int64_t kExactInFloat = int64_t{1} << 24;

}  // namespace

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

// ---- families: recurrent, Lp pooling, float8 casts, scatters, quantization, arg extremes ---

// Version 7 drops output_sequence: a Y the node names is produced, as output_sequence 1 said.
Status dropOutputSequence(NodeDraft& draft) {
  draft.removeAttribute("output_sequence");
  return Status::ok();
}

// Back before version 7, a node that names Y says output_sequence 1: with 0, Y is optional.
Status keepOutputSequence(NodeDraft& draft) {
  const Node& node = draft.node();
  if (node.outputCount() > 0 && node.output(0) != nullptr) {
    draft.setIntAttr("output_sequence", 1);
  }
  return Status::ok();
}

// Down from version 14: only layout 0 (sequence first), the one the older versions have.
Status dropLayout(NodeDraft& draft) {
  if (draft.attribute("layout") == nullptr) return Status::ok();
  if (draft.intAttr("layout") != 0) {
    return draft.refuse("layout other than 0 has no form in version 7");
  }
  draft.removeAttribute("layout");
  return Status::ok();
}

// Version 2 makes p an int (its default 2, as 2.0 was): a whole float p becomes that int.
Status pToInt(NodeDraft& draft) {
  if (draft.attribute("p") == nullptr) return Status::ok();
  std::optional<float> p = draft.floatAttr("p");
  if (!p || std::trunc(*p) != *p || std::fabs(*p) > kExactInFloat) {
    return draft.refuse("p is not a whole number, and version 2 takes an int");
  }
  draft.setIntAttr("p", static_cast<int64_t>(*p));
  return Status::ok();
}

// Back to version 1's float p.
Status pToFloat(NodeDraft& draft) {
  if (draft.attribute("p") == nullptr) return Status::ok();
  std::optional<int64_t> p = draft.intAttr("p");
  if (!p || *p > kExactInFloat || *p < -kExactInFloat) {
    return draft.refuse("p is not an int a float holds exactly");
  }
  draft.setFloatAttr("p", static_cast<float>(*p));
  return Status::ok();
}

// Down to version 13: saturate applies to the float8 types only, which version 13 lacks.
Status dropSaturate(NodeDraft& draft) {
  draft.removeAttribute("saturate");
  return Status::ok();
}

// Down to version 16, which reduces by none, add or mul only.
Status refuseMaxMin(NodeDraft& draft) {
  std::optional<std::string_view> reduction = draft.stringAttr("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul") {
    return draft.refuse("reduction max or min has no form in version 16");
  }
  return Status::ok();
}

// Down to version 10, which quantizes per tensor only (a scalar scale) and has no axis.
Status perTensorOnly(NodeDraft& draft) {
  if (std::optional<std::vector<Extent>> scale = draft.inputShape(1); !scale || !allOnes(*scale))
    return draft.refuse("the scale is not known to be one element");
  draft.removeAttribute("axis");
  return Status::ok();
}

// Down to version 11, which picks the first of equal extremes: select_last_index must be 0.
Status dropSelectLastIndex(NodeDraft& draft) {
  if (draft.attribute("select_last_index") == nullptr) return Status::ok();
  std::optional<int64_t> last = draft.intAttr("select_last_index");
  if (!last || *last != 0) return draft.refuse("select_last_index is not 0");
  draft.removeAttribute("select_last_index");
  return Status::ok();
}

Status alongOneAxis(NodeDraft& draft) {
  const AttributeSpec* spec = draft.from().attribute("axis");
  std::optional<int64_t> axis = draft.attribute("axis") != nullptr
                                    ? draft.intAttr("axis")
                                    : std::optional<int64_t>(spec->default_int);
  if (!axis) return draft.refuse("axis is not an int");
  if (*axis == -1) {
    draft.setIntAttr("axis", *axis);
    return Status::ok();
  }
  std::optional<std::vector<Extent>> shape = draft.inputShape(0);
  if (!shape) return draft.refuse("axis is not -1 and the input's rank is unknown");
  const auto rank = static_cast<int64_t>(shape->size());
  int64_t at = *axis < 0 ? *axis + rank : *axis;
  if (at < 0 || at >= rank) return draft.refuse("axis is outside the input's rank");
  std::span<const Extent> after(shape->begin() + at + 1, shape->end());
  if (allOnes(after)) {
    draft.setIntAttr("axis", *axis);
    return Status::ok();
  }
  int64_t opset = draft.to().since_version;
  if (draft.goingUp()) {
    // The older versions' 2-D coercion, written out: a Flatten at axis, the operator along
    // its last axis, a Reshape back to the input's shape (a constant: every dimension known).
    std::vector<int64_t> dims;
    for (const Extent& extent : *shape) {
      if (!extent.value) {
        return draft.refuse(
            "a dimension after axis is not known to be 1, and the shape is not static");
      }
      dims.push_back(*extent.value);
    }
    Tensor* reshaped[] = {draft.integers(dims)};
    draft.precede("Flatten", opset).setIntAttr("axis", at);
    draft.setIntAttr("axis", -1);
    draft.follow("Reshape", opset, reshaped);
    return Status::ok();
  }
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != at) perm.push_back(d);
  }
  perm.push_back(at);
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  draft.precede("Transpose", opset).setIntsAttr("perm", perm);
  draft.setIntAttr("axis", rank - 1);
  draft.follow("Transpose", opset, {}).setIntsAttr("perm", inverse);
  return Status::ok();
}

}  // namespace onyx::ops
