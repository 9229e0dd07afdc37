// Node: its place in the node list, its inputs and outputs, and destroying it.
#include "onyx/ir/node.h"

#include <string>
#include "core/development_checks.h"
#include "onyx/core/quote.h"

#include "ir/graph_builder.h"
#include "ir/scope.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/unique_names.h"

namespace onyx {

const NodeRareFields Node::kNone{};

using B = ir_internal::GraphBuilder;
using ir_internal::discardGraph;
using ir_internal::removeValue;

namespace {

void unlinkFromList(Node* node) {
  Graph* graph = node->graph();
  Node* prev = node->prev();
  Node* next = node->next();
  (prev != nullptr ? B::next(prev) : B::firstNode(graph)) = next;
  (next != nullptr ? B::prev(next) : B::lastNode(graph)) = prev;
  B::prev(node) = nullptr;
  B::next(node) = nullptr;
  --B::nodeCount(graph);
}

void linkBefore(Node* node, Node* other) {
  Graph* graph = other->graph();
  B::graph(node) = graph;
  B::next(node) = other;
  B::prev(node) = other->prev();
  (other->prev() != nullptr ? B::next(other->prev()) : B::firstNode(graph)) = node;
  B::prev(other) = node;
  ++B::nodeCount(graph);
}

void linkAfter(Node* node, Node* other) {
  Graph* graph = other->graph();
  B::graph(node) = graph;
  B::prev(node) = other;
  B::next(node) = other->next();
  (other->next() != nullptr ? B::prev(other->next()) : B::lastNode(graph)) = node;
  B::next(other) = node;
  ++B::nodeCount(graph);
}

// Moves the link `from` holds in its value's use-list into `to`, at the same place in the
// list, leaving `from` unlinked. `to` must be unlinked. O(1).
void transferUse(Use& to, Use& from) {
  B::value(&to) = from.value();
  B::next(&to) = from.next();
  B::prev(&to) = B::prev(&from);
  if (to.value() != nullptr) {
    *B::prev(&to) = &to;
    if (to.next() != nullptr) B::prev(to.next()) = &B::next(&to);
  }
  B::value(&from) = nullptr;
  B::next(&from) = nullptr;
  B::prev(&from) = nullptr;
}

[[maybe_unused]] bool visibleFrom(const Graph* graph, const Value* value) {
  return value == nullptr || (value->graph() != nullptr && value->graph()->encloses(graph));
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Place in the node list

bool Node::isAttached() const {
  return graph_ != nullptr && (prev_ != nullptr || graph_->firstNode() == this);
}

void Node::insertBefore(Node* other) {
  ONYX_ASSERT(!isAttached() && other->isAttached());
  ONYX_ASSERT((graph_ == nullptr || graph_ == other->graph()) && "nodes stay in their graph");
  linkBefore(this, other);
}

void Node::insertAfter(Node* other) {
  ONYX_ASSERT(!isAttached() && other->isAttached());
  ONYX_ASSERT((graph_ == nullptr || graph_ == other->graph()) && "nodes stay in their graph");
  linkAfter(this, other);
}

void Node::moveBefore(Node* other) {
  ONYX_ASSERT(isAttached() && other->isAttached() && graph_ == other->graph());
  if (other == this || other->prev() == this) return;
  unlinkFromList(this);
  linkBefore(this, other);
}

void Node::moveAfter(Node* other) {
  ONYX_ASSERT(isAttached() && other->isAttached() && graph_ == other->graph());
  if (other == this || other->next() == this) return;
  unlinkFromList(this);
  linkAfter(this, other);
}

bool Node::isBefore(const Node* other) const {
  if (other == this || other == nullptr || other->graph() != graph_) return false;
  for (const Node* node = next_; node != nullptr; node = node->next()) {
    if (node == other) return true;
  }
  return false;
}

Status Node::destroy() {
  if (graph_ == nullptr)
    return Status(ErrorCode::kInvalidArgument, "the node is already destroyed");
  for (const Value* value : outputs_) {
    if (value == nullptr) continue;
    bool used_elsewhere = false;
    for (const Use& use : value->uses()) used_elsewhere |= use.user() != this;
    if (used_elsewhere) {
      return Status(ErrorCode::kInvalidArgument, "output " + quoted(value->name()) + " of node " +
                                                     quoted(nameOrEmpty()) + " (" +
                                                     std::string(opType()) + ") still has uses");
    }
  }
  if (isAttached()) unlinkFromList(this);
  for (Use& use : inputs_) use.set(nullptr);
  for (const Attribute* attribute : attributes) {
    if (attribute->g != nullptr) discardGraph(attribute->g);
    if (attribute->rare_fields != nullptr) {
      for (Graph* sub : attribute->rare().graphs) discardGraph(sub);
    }
  }
  for (Value* value : outputs_) {
    if (value != nullptr) removeValue(value);
  }
  graph_ = nullptr;
  return Status::ok();
}

// ---------------------------------------------------------------------------------------
// Inputs

void Node::setInput(size_t i, Value* value) {
  ONYX_ASSERT(i < inputs_.size());
  ONYX_ASSERT(visibleFrom(graph_, value) && "a node reads only values visible from its graph");
  inputs_[i].set(value);
}

void GraphEditor::addInput(Node* node, Value* value) const {
  insertInput(node, node->inputs_.size(), value);
}

void GraphEditor::insertInput(Node* node, size_t i, Value* value) const {
  Arena& arena = *arena_;
  ONYX_ASSERT(i <= node->inputs_.size());
  ONYX_ASSERT(visibleFrom(node->graph_, value) &&
              "a node reads only values visible from its graph");
  // Linked slots must not move by copy: the new array takes each link over in place.
  ArenaList<Use> grown;
  grown.resize(arena, node->inputs_.size() + 1);
  for (size_t j = 0; j < node->inputs_.size(); ++j)
    transferUse(grown[j < i ? j : j + 1], node->inputs_[j]);
  for (Use& use : grown) B::user(&use) = node;
  grown[i].set(value);
  node->inputs_ = grown;
}

void Node::removeInput(size_t i) {
  ONYX_ASSERT(i < inputs_.size());
  inputs_[i].set(nullptr);
  for (size_t j = i + 1; j < inputs_.size(); ++j) transferUse(inputs_[j - 1], inputs_[j]);
  inputs_.truncate(inputs_.size() - 1);
}

void Node::removeAllInputs() {
  for (Use& use : inputs_) use.set(nullptr);
  inputs_.clear();
}

void Node::replaceInputWith(Value* from, Value* to) {
  ONYX_ASSERT(visibleFrom(graph_, to) && "a node reads only values visible from its graph");
  for (Use& use : inputs_) {
    if (use.value() == from) use.set(to);
  }
}

// ---------------------------------------------------------------------------------------
// Outputs

Value* GraphEditor::addOutput(Node* node, std::string_view hint) const {
  Arena& arena = *arena_;
  ONYX_ASSERT(node->graph_ != nullptr);
  std::string fallback;
  if (hint.empty()) {
    fallback = std::string(node->opType().empty() ? "v" : node->opType()) + "_out";
    hint = fallback;
  }
  Value* value = ir_internal::defineValue(arena, *node->graph_, uniqueName(*node->graph_, hint));
  B::producer(value) = node;
  B::outputIndex(value) = static_cast<uint32_t>(node->outputs_.size());
  node->outputs_.push_back(arena, value);
  return value;
}

Result<Value*> GraphEditor::addOutputNamed(Node* node, std::string_view output_name) const {
  Arena& arena = *arena_;
  ONYX_ASSERT(node->graph_ != nullptr);
  if (output_name.empty()) {
    node->outputs_.push_back(arena, nullptr);
    return static_cast<Value*>(nullptr);
  }
  Value* value = node->graph_->names().find(output_name);
  if (value != nullptr && value->isUndefined()) {
    // A name read before any definition (kept from a file): node output defines it.
  } else if (isNameInScope(*node->graph_, output_name)) {
    return Status(ErrorCode::kInvalidArgument,
                  "the name " + quoted(output_name) + " is already taken in scope");
  } else {
    value = ir_internal::defineValue(arena, *node->graph_, arena.copy(output_name));
  }
  B::producer(value) = node;
  B::outputIndex(value) = static_cast<uint32_t>(node->outputs_.size());
  node->outputs_.push_back(arena, value);
  return value;
}

void GraphEditor::handOverOutput(Value* value, Node* to, size_t index) const {
  Node* from = value->producer();
  ONYX_ASSERT(from != nullptr && from->graph_ == to->graph_ &&
              "an output is handed to a node of the same graph");
  ONYX_ASSERT(index < to->outputs_.size() && to->outputs_[index] == nullptr &&
              "the output is handed into an empty slot");
  from->outputs_[value->outputIndex()] = nullptr;
  B::producer(value) = to;
  B::outputIndex(value) = static_cast<uint32_t>(index);
  to->outputs_[index] = value;
}

Status Node::removeOutput(size_t i) {
  ONYX_ASSERT(i < outputs_.size());
  Value* value = outputs_[i];
  if (value != nullptr) {
    if (value->hasUses()) {
      return Status(ErrorCode::kInvalidArgument,
                    "output " + quoted(value->name()) + " still has uses");
    }
    removeValue(value);
  }
  outputs_.erase(i);
  for (size_t j = i; j < outputs_.size(); ++j) {
    if (outputs_[j] != nullptr) B::outputIndex(outputs_[j]) = static_cast<uint32_t>(j);
  }
  return Status::ok();
}

bool Node::hasUses() const {
  for (const Value* value : outputs_) {
    if (value != nullptr && value->hasUses()) return true;
  }
  return false;
}

void Node::replaceAllUsesWith(const Node* other) {
  ONYX_ASSERT(other->outputs_.size() >= outputs_.size());
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (outputs_[i] != nullptr) outputs_[i]->replaceAllUsesWith(other->outputs_[i]);
  }
}

}  // namespace onyx
