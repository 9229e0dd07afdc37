// refs.cc — the holder of a Python model and the checks that a Ref is still part of it.
#include "refs.h"

#include <fmt/format.h>

#include "onyx/core/quote.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/value.h"

namespace onyx::python {

HolderPtr makeHolder(Model model) {
  auto holder = std::make_shared<ModelHolder>();
  holder->model = std::move(model);
  return holder;
}

Graph* liveGraph(const Ref<Graph>& ref) {
  // A graph held by a removed node, or the body of a removed function, is cut loose: its
  // outermost graph is none of the model's own (main graph, training graphs, function bodies).
  const Graph* root = ref.ptr;
  while (root->parent() != nullptr) root = root->parent();
  const Model& model = ref.holder->model;
  bool own = root == model.graph;
  for (const TrainingInfo* info : model.training_info) {
    own = own || root == info->initialization || root == info->algorithm;
  }
  for (const Function* function : model.functions) own = own || root == function->body;
  if (!own)
    raiseStale("this Graph is no longer part of the model (its node or function was removed)");
  return ref.ptr;
}

Function* liveFunction(const Ref<Function>& ref) {
  for (const Function* function : ref.holder->model.functions) {
    if (function == ref.ptr) return ref.ptr;
  }
  raiseStale(fmt::format("the function {} was removed from the model",
                         onyx::quoted(ref.ptr->nameOrEmpty())));
  return nullptr;
}

Node* liveNode(const Ref<Node>& ref) {
  if (ref.ptr->graph() == nullptr && !ref.pending) {
    raiseStale(fmt::format("the node {} {} was removed from its graph", ref.ptr->opType(),
                           onyx::quoted(ref.ptr->nameOrEmpty())));
  }
  return ref.ptr;
}

Value* liveValue(const Ref<Value>& ref) {
  if (ref.ptr->graph() == nullptr && !ref.pending) {
    raiseStale(
        fmt::format("the value {} was removed from its graph", onyx::quoted(ref.ptr->name())));
  }
  return ref.ptr;
}

}  // namespace onyx::python
