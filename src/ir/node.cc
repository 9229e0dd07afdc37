// Node: its place in the node list, its inputs and outputs, and destroying it.
#include "onyx/ir/node.h"

#include <string>
#include "core/development_checks.h"

#include "ir/scope.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/unique_names.h"

namespace onyx {

const NodeRareFields Node::kNone{};

using ir_internal::discardGraph;
using ir_internal::removeValue;

namespace {

void unlinkFromList(Node* node) {
  Graph* graph = node->graph;
  if (node->prev != nullptr) {
    node->prev->next = node->next;
  } else {
    graph->first_node = node->next;
  }
  if (node->next != nullptr) {
    node->next->prev = node->prev;
  } else {
    graph->last_node = node->prev;
  }
  node->prev = nullptr;
  node->next = nullptr;
  --graph->node_count;
}

void linkBefore(Node* node, Node* other) {
  Graph* graph = other->graph;
  node->graph = graph;
  node->next = other;
  node->prev = other->prev;
  if (other->prev != nullptr) {
    other->prev->next = node;
  } else {
    graph->first_node = node;
  }
  other->prev = node;
  ++graph->node_count;
}

void linkAfter(Node* node, Node* other) {
  Graph* graph = other->graph;
  node->graph = graph;
  node->prev = other;
  node->next = other->next;
  if (other->next != nullptr) {
    other->next->prev = node;
  } else {
    graph->last_node = node;
  }
  other->next = node;
  ++graph->node_count;
}

// Moves the link `from` holds in its value's use-list into `to`, at the same place in the
// list, leaving `from` unlinked. `to` must be unlinked. O(1).
void transferUse(Use& to, Use& from) {
  to.value = from.value;
  to.next = from.next;
  to.prev = from.prev;
  if (to.value != nullptr) {
    *to.prev = &to;
    if (to.next != nullptr) to.next->prev = &to.next;
  }
  from.value = nullptr;
  from.next = nullptr;
  from.prev = nullptr;
}

[[maybe_unused]] bool visibleFrom(const Graph* graph, const Value* value) {
  return value == nullptr || (value->graph != nullptr && value->graph->encloses(graph));
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Place in the node list

bool Node::isAttached() const {
  return graph != nullptr && (prev != nullptr || graph->first_node == this);
}

void Node::insertBefore(Node* other) {
  ONYX_ASSERT(!isAttached() && other->isAttached());
  ONYX_ASSERT((graph == nullptr || graph == other->graph) && "nodes stay in their graph");
  linkBefore(this, other);
}

void Node::insertAfter(Node* other) {
  ONYX_ASSERT(!isAttached() && other->isAttached());
  ONYX_ASSERT((graph == nullptr || graph == other->graph) && "nodes stay in their graph");
  linkAfter(this, other);
}

void Node::moveBefore(Node* other) {
  ONYX_ASSERT(isAttached() && other->isAttached() && graph == other->graph);
  if (other == this || other->prev == this) return;
  unlinkFromList(this);
  linkBefore(this, other);
}

void Node::moveAfter(Node* other) {
  ONYX_ASSERT(isAttached() && other->isAttached() && graph == other->graph);
  if (other == this || other->next == this) return;
  unlinkFromList(this);
  linkAfter(this, other);
}

bool Node::isBefore(const Node* other) const {
  if (other == this || other == nullptr || other->graph != graph) return false;
  for (const Node* node = next; node != nullptr; node = node->next) {
    if (node == other) return true;
  }
  return false;
}

Status Node::destroy() {
  if (graph == nullptr) return Status(ErrorCode::kInvalidArgument, "the node is already destroyed");
  for (const Value* value : outputs) {
    if (value == nullptr) continue;
    bool used_elsewhere = false;
    for (const Use& use : value->uses()) used_elsewhere |= use.user != this;
    if (used_elsewhere) {
      return Status(ErrorCode::kInvalidArgument, "output '" + std::string(value->name) +
                                                     "' of node '" + std::string(nameOrEmpty()) +
                                                     "' (" + std::string(opType()) +
                                                     ") still has uses");
    }
  }
  if (isAttached()) unlinkFromList(this);
  for (Use& use : inputs) use.set(nullptr);
  for (const Attribute* attribute : attributes) {
    if (attribute->g != nullptr) discardGraph(attribute->g);
    if (attribute->rare_fields != nullptr) {
      for (Graph* sub : attribute->rare().graphs) discardGraph(sub);
    }
  }
  for (Value* value : outputs) {
    if (value != nullptr) removeValue(value);
  }
  graph = nullptr;
  return Status::ok();
}

// ---------------------------------------------------------------------------------------
// Inputs

void Node::setInput(size_t i, Value* value) {
  ONYX_ASSERT(i < inputs.size());
  ONYX_ASSERT(visibleFrom(graph, value) && "a node reads only values visible from its graph");
  inputs[i].set(value);
}

void Node::addInput(Arena& arena, Value* value) { insertInput(arena, inputs.size(), value); }

void Node::insertInput(Arena& arena, size_t i, Value* value) {
  ONYX_ASSERT(i <= inputs.size());
  ONYX_ASSERT(visibleFrom(graph, value) && "a node reads only values visible from its graph");
  // Linked slots must not move by copy: the new array takes each link over in place.
  ArenaList<Use> grown;
  grown.resize(arena, inputs.size() + 1);
  for (size_t j = 0; j < inputs.size(); ++j) transferUse(grown[j < i ? j : j + 1], inputs[j]);
  for (Use& use : grown) use.user = this;
  grown[i].set(value);
  inputs = grown;
}

void Node::removeInput(size_t i) {
  ONYX_ASSERT(i < inputs.size());
  inputs[i].set(nullptr);
  for (size_t j = i + 1; j < inputs.size(); ++j) transferUse(inputs[j - 1], inputs[j]);
  inputs.truncate(inputs.size() - 1);
}

void Node::removeAllInputs() {
  for (Use& use : inputs) use.set(nullptr);
  inputs.clear();
}

void Node::replaceInputWith(Value* from, Value* to) {
  ONYX_ASSERT(visibleFrom(graph, to) && "a node reads only values visible from its graph");
  for (Use& use : inputs) {
    if (use.value == from) use.set(to);
  }
}

// ---------------------------------------------------------------------------------------
// Outputs

Value* Node::addOutput(Arena& arena, std::string_view hint) {
  ONYX_ASSERT(graph != nullptr);
  std::string fallback;
  if (hint.empty()) {
    fallback = std::string(opType().empty() ? "v" : opType()) + "_out";
    hint = fallback;
  }
  Value* value = ir_internal::defineValue(arena, *graph, uniqueValueName(arena, *graph, hint));
  value->producer = this;
  value->output_index = static_cast<uint32_t>(outputs.size());
  outputs.push_back(arena, value);
  return value;
}

Result<Value*> Node::addOutputNamed(Arena& arena, std::string_view output_name) {
  ONYX_ASSERT(graph != nullptr);
  if (output_name.empty()) {
    outputs.push_back(arena, nullptr);
    return static_cast<Value*>(nullptr);
  }
  Value* value = graph->names.find(output_name);
  if (value != nullptr && value->isUndefined()) {
    // A name read before any definition (kept from a file): this output defines it.
  } else if (isNameInScope(*graph, output_name)) {
    return Status(ErrorCode::kInvalidArgument,
                  "the name '" + std::string(output_name) + "' is already taken in scope");
  } else {
    value = ir_internal::defineValue(arena, *graph, arena.copy(output_name));
  }
  value->producer = this;
  value->output_index = static_cast<uint32_t>(outputs.size());
  outputs.push_back(arena, value);
  return value;
}

Status Node::removeOutput(size_t i) {
  ONYX_ASSERT(i < outputs.size());
  Value* value = outputs[i];
  if (value != nullptr) {
    if (value->hasUses()) {
      return Status(ErrorCode::kInvalidArgument,
                    "output '" + std::string(value->name) + "' still has uses");
    }
    removeValue(value);
  }
  outputs.erase(i);
  for (size_t j = i; j < outputs.size(); ++j) {
    if (outputs[j] != nullptr) outputs[j]->output_index = static_cast<uint32_t>(j);
  }
  return Status::ok();
}

bool Node::hasUses() const {
  for (const Value* value : outputs) {
    if (value != nullptr && value->hasUses()) return true;
  }
  return false;
}

void Node::replaceAllUsesWith(const Node* other) {
  ONYX_ASSERT(other->outputs.size() >= outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i] != nullptr) outputs[i]->replaceAllUsesWith(other->outputs[i]);
  }
}

}  // namespace onyx
