// Node: typed reading and writing of attributes, and the subgraphs they hold.
#include <algorithm>

#include "ir/scope.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"

namespace onyx {

namespace {

// The attribute `name` of `node` when it holds a value of `kind`.
const Attribute* ofKind(const Node& node, std::string_view name, AttributeKind kind) {
  const Attribute* attribute = node.attribute(name);
  if (attribute == nullptr || attribute->isReference() || attribute->kind() != kind) {
    return nullptr;
  }
  return attribute;
}

template <class T>
std::span<const T> spanOf(const ArenaList<T>& list) {
  return std::span<const T>(list.data(), list.size());
}

void discardGraphsOf(const Attribute& attribute, std::span<Graph* const> kept) {
  auto discard = [&](Graph* graph) {
    if (std::find(kept.begin(), kept.end(), graph) == kept.end()) {
      ir_internal::discardGraph(graph);
    }
  };
  if (attribute.g != nullptr) discard(attribute.g);
  for (Graph* graph : attribute.rare().graphs) discard(graph);
}

// A fresh attribute named `name` of `kind`, in place of the node's attribute of that name
// (whose subgraphs are discarded, except `kept`), else appended.
Attribute& fresh(Arena& arena, Node& node, std::string_view name, AttributeKind kind,
                 std::span<Graph* const> kept = {}) {
  Attribute* attribute = arena.make<Attribute>();
  attribute->name = arena.copy(name);
  attribute->type = static_cast<int32_t>(kind);
  for (Attribute*& existing : node.attributes) {
    if (existing->name.value_or("") == name) {
      discardGraphsOf(*existing, kept);
      existing = attribute;
      return *attribute;
    }
  }
  node.attributes.push_back(arena, attribute);
  return *attribute;
}

template <class T>
void copyInto(Arena& arena, ArenaList<T>& list, std::span<const T> values) {
  list.assign(arena, values.data(), values.size());
}

}  // namespace

const Attribute* Node::attribute(std::string_view attribute_name) const {
  for (const Attribute* a : attributes) {
    if (a->name.value_or("") == attribute_name) return a;
  }
  return nullptr;
}

Attribute* Node::attribute(std::string_view attribute_name) {
  return const_cast<Attribute*>(static_cast<const Node*>(this)->attribute(attribute_name));
}

bool Node::holdsGraphs() const {
  for (const Attribute* a : attributes) {
    if (a->g != nullptr || !a->rare().graphs.empty()) return true;
  }
  return false;
}

bool Node::removeAttr(std::string_view attribute_name) {
  for (size_t i = 0; i < attributes.size(); ++i) {
    if (attributes[i]->name.value_or("") == attribute_name) {
      discardGraphsOf(*attributes[i], {});
      attributes.erase(i);
      return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// Reading

std::optional<float> Node::floatAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kFloat);
  return a ? std::optional<float>(a->f.value_or(0.0f)) : std::nullopt;
}

std::optional<int64_t> Node::intAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kInt);
  return a ? std::optional<int64_t>(a->i.value_or(0)) : std::nullopt;
}

OptString Node::stringAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kString);
  return a ? OptString(a->s.value_or("")) : OptString();
}

Tensor* Node::tensorAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kTensor);
  return a ? a->t : nullptr;
}

Graph* Node::graphAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kGraph);
  return a ? a->g : nullptr;
}

SparseTensor* Node::sparseTensorAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kSparseTensor);
  return a ? a->rare().sparse_tensor : nullptr;
}

Type* Node::typeAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kTypeProto);
  return a ? a->rare().tp : nullptr;
}

std::span<const float> Node::floatsAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kFloats);
  return a ? spanOf(a->floats.values) : std::span<const float>();
}

std::span<const int64_t> Node::intsAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kInts);
  return a ? spanOf(a->ints.values) : std::span<const int64_t>();
}

std::span<const std::string_view> Node::stringsAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kStrings);
  if (a == nullptr) return {};
  return spanOf(a->rare().strings);
}

std::span<Tensor* const> Node::tensorsAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kTensors);
  if (a == nullptr) return {};
  return spanOf(a->rare().tensors);
}

std::span<Graph* const> Node::graphsAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kGraphs);
  if (a == nullptr) return {};
  return spanOf(a->rare().graphs);
}

std::span<SparseTensor* const> Node::sparseTensorsAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kSparseTensors);
  if (a == nullptr) return {};
  return spanOf(a->rare().sparse_tensors);
}

std::span<Type* const> Node::typesAttr(std::string_view n) const {
  const Attribute* a = ofKind(*this, n, AttributeKind::kTypeProtos);
  if (a == nullptr) return {};
  return spanOf(a->rare().type_protos);
}

// ---------------------------------------------------------------------------------------
// Writing

Attribute& GraphEditor::setFloatAttr(Node* node, std::string_view n, float value) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kFloat);
  a.f = value;
  return a;
}

Attribute& GraphEditor::setIntAttr(Node* node, std::string_view n, int64_t value) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kInt);
  a.i = value;
  return a;
}

Attribute& GraphEditor::setStringAttr(Node* node, std::string_view n,
                                      std::string_view value) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kString);
  a.s = arena.copy(value);
  return a;
}

Attribute& GraphEditor::setTensorAttr(Node* node, std::string_view n, Tensor* value) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kTensor);
  a.t = value;
  return a;
}

Graph* GraphEditor::setGraphAttr(Node* node, std::string_view n) const {
  Graph* subgraph = newGraph();
  setGraphAttr(node, n, subgraph);
  return subgraph;
}

Attribute& GraphEditor::setGraphAttr(Node* node, std::string_view n, Graph* subgraph) const {
  Arena& arena = *arena_;
  Graph* const kept[] = {subgraph};
  Attribute& a = fresh(arena, *node, n, AttributeKind::kGraph, kept);
  ir_internal::adoptGraph(arena, node, subgraph);
  a.g = subgraph;
  return a;
}

Attribute& GraphEditor::setSparseTensorAttr(Node* node, std::string_view n,
                                            SparseTensor* value) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kSparseTensor);
  rare(&a).sparse_tensor = value;
  return a;
}

Attribute& GraphEditor::setTypeAttr(Node* node, std::string_view n, Type* value) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kTypeProto);
  rare(&a).tp = value;
  return a;
}

Attribute& GraphEditor::setFloatsAttr(Node* node, std::string_view n,
                                      std::span<const float> values) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kFloats);
  copyInto(arena, a.floats.values, values);
  a.floats.packed = true;  // as protobuf writes a repeated float in proto3 style
  return a;
}

Attribute& GraphEditor::setIntsAttr(Node* node, std::string_view n,
                                    std::span<const int64_t> values) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kInts);
  copyInto(arena, a.ints.values, values);
  a.ints.packed = true;
  return a;
}

Attribute& GraphEditor::setStringsAttr(Node* node, std::string_view n,
                                       std::span<const std::string_view> values) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kStrings);
  ArenaList<std::string_view>& strings = rare(&a).strings;
  strings.reserve(arena, values.size());
  for (std::string_view text : values) strings.push_back(arena, arena.copy(text));
  return a;
}

Attribute& GraphEditor::setTensorsAttr(Node* node, std::string_view n,
                                       std::span<Tensor* const> values) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kTensors);
  copyInto(arena, rare(&a).tensors, values);
  return a;
}

Attribute& GraphEditor::setGraphsAttr(Node* node, std::string_view n,
                                      std::span<Graph* const> subgraphs) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kGraphs, subgraphs);
  for (Graph* subgraph : subgraphs) ir_internal::adoptGraph(arena, node, subgraph);
  copyInto(arena, rare(&a).graphs, subgraphs);
  return a;
}

Attribute& GraphEditor::setSparseTensorsAttr(Node* node, std::string_view n,
                                             std::span<SparseTensor* const> values) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kSparseTensors);
  copyInto(arena, rare(&a).sparse_tensors, values);
  return a;
}

Attribute& GraphEditor::setTypesAttr(Node* node, std::string_view n,
                                     std::span<Type* const> values) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, AttributeKind::kTypeProtos);
  copyInto(arena, rare(&a).type_protos, values);
  return a;
}

Attribute& GraphEditor::setAttrRef(Node* node, std::string_view n, AttributeKind kind,
                                   std::string_view referenced) const {
  Arena& arena = *arena_;
  Attribute& a = fresh(arena, *node, n, kind);
  rare(&a).ref_attr_name = arena.copy(referenced);
  return a;
}

}  // namespace onyx
