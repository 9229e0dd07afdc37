#include "onyx/ir/value.h"

#include "onyx/ir/editor.h"

#include "ir/scope.h"
#include "onyx/ir/graph.h"

namespace onyx {

size_t Use::index() const { return static_cast<size_t>(this - user_->inputs().data()); }

const Type* Value::type() const {
  if (input_ != nullptr) return input_->type;
  if (value_info_ != nullptr) return value_info_->type;
  return nullptr;
}

std::optional<int32_t> Value::elemType() const {
  const Type* declared = type();
  if (declared != nullptr &&
      (declared->kind == Type::Kind::kTensor || declared->kind == Type::Kind::kSparseTensor) &&
      declared->elem_type.has_value()) {
    return declared->elem_type;
  }
  if (initializer_ != nullptr) return initializer_->data_type;
  if (sparse_initializer_ != nullptr && sparse_initializer_->values != nullptr) {
    return sparse_initializer_->values->data_type;
  }
  return std::nullopt;
}

const TensorShape* Value::shape() const {
  const Type* declared = type();
  if (declared == nullptr) return nullptr;
  if (declared->kind != Type::Kind::kTensor && declared->kind != Type::Kind::kSparseTensor) {
    return nullptr;
  }
  return declared->shape;
}

void GraphEditor::setType(Value* value, Type* new_type) const {
  Arena& arena = *arena_;
  if (value->graph_ == nullptr) return;
  // The graph's outputs that are this value declare the same type.
  for (ValueInfo* output : value->graph_->outputs) {
    if (output->output.value() == value) output->type = new_type;
  }
  if (value->input_ != nullptr) {
    value->input_->type = new_type;
  } else if (value->value_info_ != nullptr) {
    value->value_info_->type = new_type;
  } else if (!value->isGraphOutputOfItsGraph()) {
    ValueInfo* info = arena.make<ValueInfo>();
    info->name = value->name_;
    info->type = new_type;
    info->value = value;
    value->graph_->value_info.push_back(arena, info);
    value->value_info_ = info;
  }
}

void Value::redeclareAfterOutputsMoved(Value* other) {
  if (value_info_ != nullptr && value_info_->bound() != this) ir_internal::redeclare(this);
  // A graph input's type is its input entry's, whatever else declares it (Graph::addOutput
  // binds the same way).
  if (other != nullptr && other->value_info_ == nullptr && other->input_ == nullptr) {
    ir_internal::redeclare(other);
  }
}

bool Value::isGraphOutputOfItsGraph() const {
  if (graph_ == nullptr) return false;
  for (const ValueInfo* output : graph_->outputs) {
    if (output->output.value() == this) return true;
  }
  return false;
}

size_t Value::useCount() const {
  size_t count = 0;
  for (const Use* use = first_use_; use != nullptr; use = use->next()) ++count;
  return count;
}

bool Value::isCaptured() const {
  for (const Use* use = first_use_; use != nullptr; use = use->next()) {
    if (graphOf(*use) != graph_) return true;
  }
  return false;
}

namespace {

// The graph nested in `graph` (not `graph` itself) whose outputs hold `use`, or null.
Graph* nestedGraphWithOutput(const Graph& graph, const Use& use) {
  for (Graph* sub : graph.subgraphs()) {
    for (const ValueInfo* info : sub->outputs) {
      if (&info->output == &use) return sub;
    }
    if (Graph* deeper = nestedGraphWithOutput(*sub, use)) return deeper;
  }
  return nullptr;
}

}  // namespace

Graph* graphOf(const Use& use) {
  if (use.user() != nullptr) return use.user()->graph();
  if (use.value() == nullptr || use.value()->graph() == nullptr) return nullptr;
  // An output reads a value visible where it is: of its own graph (or function body), or
  // of an enclosing one, which makes the output's graph a nested one.
  Graph* own = use.value()->graph();
  if (Graph* nested = nestedGraphWithOutput(*own, use)) return nested;
  return own;
}

}  // namespace onyx
