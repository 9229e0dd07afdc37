#include "ops/node_draft.h"

#include <fmt/format.h>

#include <algorithm>

#include "onyx/core/element_type.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/tensor_array.h"

namespace onyx::ops {

bool sameExtent(const Extent& a, const Extent& b) {
  if (a.value || b.value) return a.value == b.value;
  return !a.symbol.empty() && a.symbol == b.symbol;
}

bool allOnes(std::span<const Extent> shape) {
  return std::all_of(shape.begin(), shape.end(),
                     [](const Extent& extent) { return extent.value == int64_t{1}; });
}

NodeDraft::NodeDraft(Node& node, const GraphEditor& edit, const ValueTypeOf& type_of,
                     InitializerInputs initializer_inputs)
    : node_(node), edit_(edit), type_of_(type_of), initializer_inputs_(initializer_inputs) {
  attributes_.assign(node.attributes.begin(), node.attributes.end());
  inputs_.reserve(node.inputCount());
  for (size_t i = 0; i < node.inputCount(); ++i) inputs_.push_back({node.input(i), nullptr});
}

Status NodeDraft::refuse(std::string_view reason) const {
  return Status(ErrorCode::kUnsupported,
                fmt::format("{} {} to {}: {}", node_.opType(), from_->since_version,
                            to_->since_version, reason));
}

// ---- attributes ------------------------------------------------------------------------------

const Attribute* NodeDraft::attribute(std::string_view name) const {
  for (const Attribute* attribute : attributes_) {
    if (attribute->nameOrEmpty() == name) return attribute;
  }
  return nullptr;
}

std::optional<int64_t> NodeDraft::intAttr(std::string_view name) const {
  const Attribute* found = attribute(name);
  if (found == nullptr || found->kind() != AttributeKind::kInt) return std::nullopt;
  return found->i;
}

std::optional<float> NodeDraft::floatAttr(std::string_view name) const {
  const Attribute* found = attribute(name);
  if (found == nullptr || found->kind() != AttributeKind::kFloat) return std::nullopt;
  return found->f;
}

std::optional<std::vector<int64_t>> NodeDraft::intsAttr(std::string_view name) const {
  const Attribute* found = attribute(name);
  if (found == nullptr || found->kind() != AttributeKind::kInts) return std::nullopt;
  return std::vector<int64_t>(found->ints.values.begin(), found->ints.values.end());
}

std::optional<std::vector<float>> NodeDraft::floatsAttr(std::string_view name) const {
  const Attribute* found = attribute(name);
  if (found == nullptr || found->kind() != AttributeKind::kFloats) return std::nullopt;
  return std::vector<float>(found->floats.values.begin(), found->floats.values.end());
}

std::optional<std::vector<std::string_view>> NodeDraft::stringsAttr(std::string_view name) const {
  const Attribute* found = attribute(name);
  if (found == nullptr || found->kind() != AttributeKind::kStrings) return std::nullopt;
  const ArenaList<std::string_view>& strings = found->rare().strings;
  return std::vector<std::string_view>(strings.begin(), strings.end());
}

std::optional<std::string_view> NodeDraft::stringAttr(std::string_view name,
                                                      std::string_view fallback) const {
  const Attribute* found = attribute(name);
  if (found == nullptr) return fallback;
  if (found->kind() != AttributeKind::kString || !found->s) return std::nullopt;
  return *found->s;
}

std::vector<std::string_view> NodeDraft::attributeNames() const {
  std::vector<std::string_view> names;
  names.reserve(attributes_.size());
  for (const Attribute* attribute : attributes_) names.push_back(attribute->nameOrEmpty());
  return names;
}

Node* NodeDraft::scratch() {
  if (scratch_ == nullptr) scratch_ = edit_.arena().make<Node>();
  return scratch_;
}

void NodeDraft::put(Attribute& made) {
  attributes_.push_back(&made);
  attributes_changed_ = true;
}

void NodeDraft::setIntAttr(std::string_view name, int64_t value) {
  removeAttribute(name);
  put(edit_.setIntAttr(scratch(), name, value));
}

void NodeDraft::setFloatAttr(std::string_view name, float value) {
  removeAttribute(name);
  put(edit_.setFloatAttr(scratch(), name, value));
}

void NodeDraft::setIntsAttr(std::string_view name, std::span<const int64_t> values) {
  removeAttribute(name);
  put(edit_.setIntsAttr(scratch(), name, values));
}

void NodeDraft::setFloatsAttr(std::string_view name, std::span<const float> values) {
  removeAttribute(name);
  put(edit_.setFloatsAttr(scratch(), name, values));
}

void NodeDraft::setStringsAttr(std::string_view name, std::span<const std::string_view> values) {
  removeAttribute(name);
  put(edit_.setStringsAttr(scratch(), name, values));
}

void NodeDraft::setStringAttr(std::string_view name, std::string_view value) {
  removeAttribute(name);
  put(edit_.setStringAttr(scratch(), name, value));
}

void NodeDraft::removeAttribute(std::string_view name) {
  auto found = std::find_if(attributes_.begin(), attributes_.end(),
                            [&](const Attribute* a) { return a->nameOrEmpty() == name; });
  if (found == attributes_.end()) return;
  attributes_.erase(found);
  attributes_changed_ = true;
}

// ---- inputs ----------------------------------------------------------------------------------

const Tensor* NodeDraft::constantInput(size_t i) const {
  if (i >= inputs_.size()) return nullptr;
  if (inputs_[i].constant != nullptr) return inputs_[i].constant;
  return constantTensor(inputs_[i].value, initializer_inputs_);
}

std::optional<std::vector<int64_t>> NodeDraft::constantIntegers(size_t i) const {
  if (i >= inputs_.size()) return std::nullopt;
  if (inputs_[i].constant == nullptr) {
    return onyx::constantIntegers(inputs_[i].value, initializer_inputs_);
  }
  Result<Array> array = arrayFromTensor(*inputs_[i].constant);
  if (!array || (array->type() != ElementType::kInt64 && array->type() != ElementType::kInt32)) {
    return std::nullopt;
  }
  std::vector<int64_t> values(array->size());
  for (size_t k = 0; k < values.size(); ++k) {
    values[k] = array->type() == ElementType::kInt64 ? array->data<int64_t>()[k]
                                                     : array->data<int32_t>()[k];
  }
  return values;
}

const Type* NodeDraft::inputType(size_t i) const {
  if (i >= inputs_.size()) return nullptr;
  if (inputs_[i].value != nullptr) return type_of_(*inputs_[i].value);
  return nullptr;  // a constant the draft made: its adapter knows what it wrote
}

std::optional<std::vector<Extent>> NodeDraft::inputShape(size_t i) const {
  std::vector<Extent> shape;
  if (const Type* type = inputType(i); type != nullptr && type->shape != nullptr) {
    for (const Dimension& dim : type->shape->dims) {
      shape.push_back({dim.dim_value, dim.dim_param.value_or(std::string_view())});
    }
    return shape;
  }
  if (const Tensor* constant = constantInput(i); constant != nullptr) {
    for (int64_t dim : constant->dims) shape.push_back({dim, {}});
    return shape;
  }
  return std::nullopt;
}

std::optional<int64_t> NodeDraft::inputRank(size_t i) const {
  std::optional<std::vector<Extent>> shape = inputShape(i);
  if (!shape) return std::nullopt;
  return static_cast<int64_t>(shape->size());
}

const Type* NodeDraft::outputType(size_t i) const {
  if (i >= node_.outputCount() || node_.output(i) == nullptr) return nullptr;
  return type_of_(*node_.output(i));
}

void NodeDraft::setInput(size_t i, Value* value) {
  if (i >= inputs_.size()) inputs_.resize(i + 1);
  inputs_[i] = {value, nullptr};
  inputs_changed_ = true;
}

void NodeDraft::setConstantInput(size_t i, Tensor* tensor) {
  if (i >= inputs_.size()) inputs_.resize(i + 1);
  inputs_[i] = {nullptr, tensor};
  inputs_changed_ = true;
}

Tensor* NodeDraft::integers(std::span<const int64_t> values) const {
  Array array(ElementType::kInt64, {static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), array.data<int64_t>());
  return edit_.tensorFromArray(array);
}

void NodeDraft::setIntegersInput(size_t i, std::span<const int64_t> values) {
  setConstantInput(i, integers(values));
}

NodeDraft& NodeDraft::added(std::string_view op_type, int64_t opset, bool precedes,
                            std::vector<Input> inputs) {
  Node* stand_in = edit_.arena().make<Node>();
  stand_in->op_type = edit_.arena().copy(op_type);
  auto draft = std::make_unique<NodeDraft>(*stand_in, edit_, type_of_, initializer_inputs_);
  draft->follower_ = true;
  draft->inputs_ = std::move(inputs);
  draft->inputs_changed_ = true;
  followers_.push_back({std::move(draft), opset, precedes});
  return *followers_.back().draft;
}

NodeDraft& NodeDraft::follow(std::string_view op_type, int64_t opset,
                             std::span<Tensor* const> constants) {
  std::vector<Input> inputs = {{nullptr, nullptr, true}};
  for (Tensor* constant : constants) inputs.push_back({nullptr, constant, false});
  return added(op_type, opset, false, std::move(inputs));
}

NodeDraft& NodeDraft::precede(std::string_view op_type, int64_t opset) {
  Input read = inputs_.empty() ? Input{} : inputs_[0];
  if (inputs_.empty()) inputs_.resize(1);
  inputs_[0] = {nullptr, nullptr, false, true};
  inputs_changed_ = true;
  return added(op_type, opset, true, {read});
}

void NodeDraft::resizeInputs(size_t count) {
  if (count == inputs_.size()) return;
  inputs_.resize(count);
  inputs_changed_ = true;
}

// ---- writing ---------------------------------------------------------------------------------

Value* NodeDraft::written(const Input& input, Patch& patch, bool initializers_allowed, Node* before,
                          Value* leader, Value* predecessor) const {
  if (input.leader) return leader;
  if (input.preceded) return predecessor;
  if (input.constant == nullptr) return input.value;
  if (initializers_allowed) return patch.addInitializer(input.constant);
  Node* constant = patch.addNode("Constant", {}, 1, before);
  edit_.setTensorAttr(constant, "value", input.constant);
  return constant->output(0);
}

void NodeDraft::writeTo(Patch& patch, bool initializers_allowed) const {
  if (!followers_.empty()) return writeExpanded(patch, initializers_allowed);
  if (attributes_changed_) {
    for (const Attribute* before : node_.attributes) {
      if (std::find(attributes_.begin(), attributes_.end(), before) == attributes_.end()) {
        patch.removeAttribute(&node_, before->nameOrEmpty());
      }
    }
    for (Attribute* after : attributes_) {
      bool kept = std::find(node_.attributes.begin(), node_.attributes.end(), after) !=
                  node_.attributes.end();
      if (!kept) patch.attributesFor(&node_).attributes.push_back(edit_.arena(), after);
    }
  }
  if (!inputs_changed_) return;
  patch.resizeInputs(&node_, inputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Input& input = inputs_[i];
    if (input.constant == nullptr) {
      if (i >= node_.inputCount() || node_.input(i) != input.value) {
        patch.setInput(&node_, i, input.value);
      }
      continue;
    }
    patch.setInput(&node_, i,
                   written(input, patch, initializers_allowed, &node_, nullptr, nullptr));
  }
}

// The node and the nodes added around it are new nodes in its place: its predecessor, the
// node as drafted reading the predecessor's output, then each follower reading the output of
// the one before, the last taking over the node's output (its readers and its name). The node
// goes.
void NodeDraft::writeExpanded(Patch& patch, bool initializers_allowed) const {
  auto made = [&](const NodeDraft& draft, Value* leader, Value* predecessor) {
    std::vector<Value*> reads;
    for (const Input& input : draft.inputs_) {
      reads.push_back(written(input, patch, initializers_allowed, &node_, leader, predecessor));
    }
    Node* node = patch.addNode(draft.node_.opType(), reads, 1, &node_);
    node->domain = draft.node_.domain;
    for (Attribute* attribute : draft.attributes_) {
      node->attributes.push_back(edit_.arena(), attribute);
    }
    return node;
  };
  Value* predecessor = nullptr;
  for (const Follower& added : followers_) {
    if (added.precedes) predecessor = made(*added.draft, nullptr, nullptr)->output(0);
  }
  Node* last = made(*this, nullptr, predecessor);
  last->name = node_.name;
  for (const Follower& added : followers_) {
    if (!added.precedes) last = made(*added.draft, last->output(0), nullptr);
  }
  patch.replaceNode(&node_, last);
  patch.nameValue(last->output(0), node_.output(0)->name());
}

}  // namespace onyx::ops
