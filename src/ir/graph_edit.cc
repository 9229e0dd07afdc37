// Graph: creating and removing nodes, inputs, outputs and initializers.
#include <string>
#include <unordered_set>
#include "core/development_checks.h"
#include "onyx/core/quote.h"

#include "ir/graph_builder.h"
#include "ir/scope.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/unique_names.h"

namespace onyx {

using B = ir_internal::GraphBuilder;
using ir_internal::defineValue;
using ir_internal::removeValue;

namespace {

Status nameTaken(std::string_view name) {
  return Status(ErrorCode::kInvalidArgument,
                "the name " + quoted(name) + " is already taken in scope");
}

// The value a new definition of `name` in `graph` gets: an existing one of this graph
// that `joins` accepts (or that was only read so far), a new one when the name is free;
// null (refused) when the name is taken in scope otherwise.
template <class Joins>
Value* valueToDefine(Arena& arena, Graph& graph, std::string_view name, Joins&& joins) {
  if (Value* own = graph.names().find(name)) {
    return own->isUndefined() || joins(*own) ? own : nullptr;
  }
  if (isNameInScope(graph, name)) return nullptr;
  return defineValue(arena, graph, arena.copy(name));
}

// Removes `value`'s declaration role and, when nothing else defines it, the value.
Status dropDefinition(Value* value) {
  if (value->isUndefined()) {
    if (value->hasUses()) {
      return Status(ErrorCode::kInvalidArgument, quoted(value->name()) + " still has uses");
    }
    removeValue(value);
  }
  return Status::ok();
}

template <class T>
void eraseFirst(ArenaList<T*>& list, const T* item) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == item) {
      list.erase(i);
      return;
    }
  }
}

}  // namespace

Graph* GraphEditor::newGraph() const { return arena_->make<Graph>(); }

Graph* GraphEditor::newSubgraph(Node* owner) const {
  ONYX_ASSERT(owner->graph() != nullptr && "a subgraph is scoped under a node of a graph");
  Graph* graph = newGraph();
  ir_internal::adoptGraph(*arena_, owner, graph);
  return graph;
}

// ---------------------------------------------------------------------------------------
// Nodes

Node* GraphEditor::createNode(Graph& graph, std::string_view op_type, std::span<Value* const> reads,
                              size_t output_count) const {
  Arena& arena = *arena_;
  Node* node = arena.make<Node>();
  B::graph(node) = &graph;
  node->op_type = arena.copy(op_type);
  ArenaList<Use>& slots = B::inputs(node);
  slots.resize(arena, reads.size());
  for (size_t i = 0; i < reads.size(); ++i) {
    B::user(&slots[i]) = node;
    node->setInput(i, reads[i]);
  }
  B::outputs(node).reserve(arena, output_count);
  for (size_t i = 0; i < output_count; ++i) addOutput(node);
  return node;
}

void Graph::prependNode(Node* node) {
  if (first_node_ == nullptr) {
    appendNode(node);
  } else {
    node->insertBefore(first_node_);
  }
}

Status Graph::removeNode(Node* node) {
  ONYX_ASSERT(node->graph() == this || node->graph() == nullptr);
  return node->destroy();
}

// ---------------------------------------------------------------------------------------
// Inputs and outputs

Result<Value*> GraphEditor::addInput(Graph& graph, std::string_view value_name, Type* type) const {
  Arena& arena = *arena_;
  if (value_name.empty()) return Status(ErrorCode::kInvalidArgument, "a graph input needs a name");
  Value* value = valueToDefine(arena, graph, value_name, [](const Value& existing) {
    return !existing.isGraphInput() && existing.producer() == nullptr && existing.isInitializer();
  });
  if (value == nullptr) return nameTaken(value_name);
  ir_internal::appendInput(arena, graph, value, type);
  return value;
}

Status Graph::removeInput(Value* value) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i]->value != value || value->graphInput() != inputs[i]) continue;
    B::graphInput(value) = nullptr;
    Status dropped = dropDefinition(value);
    if (!dropped) {
      B::graphInput(value) = inputs[i];
      return dropped;
    }
    inputs.erase(i);
    if (value->graph() != nullptr && value->valueInfo() == nullptr) ir_internal::redeclare(value);
    return Status::ok();
  }
  return Status(ErrorCode::kInvalidArgument,
                quoted(value->name()) + " is not an input of this graph");
}

void GraphEditor::addOutput(Graph& graph, Value* value) const {
  Arena& arena = *arena_;
  ONYX_ASSERT(value != nullptr && value->graph() != nullptr && value->graph()->encloses(&graph));
  ValueInfo* info = arena.make<ValueInfo>();
  info->name = value->name();
  info->type = const_cast<Type*>(value->type());
  info->output.set(value);
  graph.outputs.push_back(arena, info);
  if (value->graph() == &graph && !value->isGraphInput() && value->valueInfo() == nullptr) {
    B::valueInfo(value) = info;
  }
}

Status Graph::removeOutput(size_t index) {
  if (index >= outputs.size()) {
    return Status(ErrorCode::kInvalidArgument, "no output " + std::to_string(index));
  }
  ValueInfo* info = outputs[index];
  Value* value = info->output.value();
  info->output.set(nullptr);
  outputs.erase(index);
  if (value != nullptr && value->valueInfo() == info) ir_internal::redeclare(value);
  return Status::ok();
}

// ---------------------------------------------------------------------------------------
// Initializers

Result<Value*> GraphEditor::addInitializer(Graph& graph, Tensor* tensor) const {
  Arena& arena = *arena_;
  std::string_view tensor_name = tensor->nameOrEmpty();
  if (tensor_name.empty()) {
    return Status(ErrorCode::kInvalidArgument, "an initializer needs a name");
  }
  Value* value = valueToDefine(arena, graph, tensor_name, [](const Value& existing) {
    return existing.isGraphInput() && !existing.isInitializer();
  });
  if (value == nullptr) return nameTaken(tensor_name);
  B::initializer(value) = tensor;
  graph.initializers.push_back(arena, tensor);
  return value;
}

Result<Value*> GraphEditor::addSparseInitializer(Graph& graph, SparseTensor* tensor) const {
  Arena& arena = *arena_;
  std::string_view tensor_name =
      tensor->values != nullptr ? tensor->values->nameOrEmpty() : std::string_view();
  if (tensor_name.empty()) {
    return Status(ErrorCode::kInvalidArgument, "a sparse initializer needs a named values tensor");
  }
  Value* value = valueToDefine(arena, graph, tensor_name, [](const Value& existing) {
    return existing.isGraphInput() && !existing.isInitializer();
  });
  if (value == nullptr) return nameTaken(tensor_name);
  B::sparseInitializer(value) = tensor;
  graph.sparse_initializers.push_back(arena, tensor);
  return value;
}

Status Graph::removeInitializer(Value* value) {
  if (value->graph() != this || !value->isInitializer()) {
    return Status(ErrorCode::kInvalidArgument,
                  quoted(value->name()) + " is not an initializer of this graph");
  }
  Tensor* dense = value->initializer();
  SparseTensor* sparse = value->sparseInitializer();
  B::initializer(value) = nullptr;
  B::sparseInitializer(value) = nullptr;
  Status dropped = dropDefinition(value);
  if (!dropped) {
    B::initializer(value) = dense;
    B::sparseInitializer(value) = sparse;
    return dropped;
  }
  if (dense != nullptr) eraseFirst(initializers, dense);
  if (sparse != nullptr) eraseFirst(sparse_initializers, sparse);
  return Status::ok();
}

Status Graph::removeInitializers(std::span<Value* const> removed) {
  for (const Value* value : removed) {
    if (value->graph() != this || !value->isInitializer()) {
      return Status(ErrorCode::kInvalidArgument,
                    quoted(value->name()) + " is not an initializer of this graph");
    }
    if (!value->isGraphInput() && value->hasUses()) {
      return Status(ErrorCode::kInvalidArgument, quoted(value->name()) + " still has uses");
    }
  }
  std::unordered_set<const void*> tensors;
  for (Value* value : removed) {
    if (!value->isInitializer()) continue;  // listed twice
    if (value->initializer() != nullptr) tensors.insert(value->initializer());
    if (value->sparseInitializer() != nullptr) tensors.insert(value->sparseInitializer());
    B::initializer(value) = nullptr;
    B::sparseInitializer(value) = nullptr;
    // Checked above: a value left undefined has no uses.
    (void)dropDefinition(value);
  }
  auto keep = [&tensors](auto& list) {
    size_t kept = 0;
    for (size_t i = 0; i < list.size(); ++i) {
      if (!tensors.contains(list[i])) list[kept++] = list[i];
    }
    list.truncate(kept);
  };
  keep(initializers);
  keep(sparse_initializers);
  return Status::ok();
}

// ---------------------------------------------------------------------------------------
// Annotations and housekeeping

TensorAnnotation& GraphEditor::quantizationAnnotation(Graph& graph,
                                                      std::string_view tensor_name) const {
  Arena& arena = *arena_;
  for (TensorAnnotation* annotation : graph.quantization_annotation) {
    if (annotation->tensor_name.value_or("") == tensor_name) return *annotation;
  }
  TensorAnnotation* annotation = arena.make<TensorAnnotation>();
  annotation->tensor_name = arena.copy(tensor_name);
  graph.quantization_annotation.push_back(arena, annotation);
  return *annotation;
}

void Graph::compact() {
  size_t kept = 0;
  for (Value* value : values_) {
    if (value->graph() == this) values_[kept++] = value;
  }
  values_.truncate(kept);
  kept = 0;
  for (ValueInfo* info : value_info) {
    if (!info->isRemoved()) value_info[kept++] = info;
  }
  value_info.truncate(kept);
  removed_values_ = 0;
}

}  // namespace onyx
