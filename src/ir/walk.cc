#include "onyx/ir/walk.h"

namespace onyx {

namespace {

void visitAttributeGraphs(const Attribute& attribute, const std::function<void(Graph&)>& fn);

void visitGraph(Graph& graph, const std::function<void(Graph&)>& fn) {
  fn(graph);
  for (Node* node = graph.first_node; node != nullptr; node = node->next) {
    for (const Attribute* attribute : node->attributes) visitAttributeGraphs(*attribute, fn);
  }
}

void visitAttributeGraphs(const Attribute& attribute, const std::function<void(Graph&)>& fn) {
  if (attribute.g != nullptr) visitGraph(*attribute.g, fn);
  if (attribute.lists != nullptr) {
    for (Graph* graph : attribute.lists->graphs) visitGraph(*graph, fn);
  }
}

void visitSparse(SparseTensor* sparse, TensorRole role,
                 const std::function<void(Tensor&, TensorRole)>& fn) {
  if (sparse == nullptr) return;
  if (sparse->values != nullptr) fn(*sparse->values, role);
  if (sparse->indices != nullptr) fn(*sparse->indices, role);
}

void visitAttributeTensors(const Attribute& attribute,
                           const std::function<void(Tensor&, TensorRole)>& fn) {
  if (attribute.t != nullptr) fn(*attribute.t, TensorRole::kAttribute);
  visitSparse(attribute.sparse_tensor, TensorRole::kAttribute, fn);
  if (attribute.lists != nullptr) {
    for (Tensor* tensor : attribute.lists->tensors) fn(*tensor, TensorRole::kAttribute);
    for (SparseTensor* sparse : attribute.lists->sparse_tensors) {
      visitSparse(sparse, TensorRole::kAttribute, fn);
    }
  }
}

}  // namespace

void forEachGraph(const Model& model, const std::function<void(Graph&)>& fn) {
  if (model.graph != nullptr) visitGraph(*model.graph, fn);
  for (const TrainingInfo* info : model.training_info) {
    if (info->initialization != nullptr) visitGraph(*info->initialization, fn);
    if (info->algorithm != nullptr) visitGraph(*info->algorithm, fn);
  }
  for (const Function* function : model.functions) {
    if (function->body != nullptr) visitGraph(*function->body, fn);
    for (const Attribute* attribute : function->attribute_proto) {
      visitAttributeGraphs(*attribute, fn);
    }
  }
}

void forEachTensor(const Model& model, const std::function<void(Tensor&, TensorRole)>& fn) {
  forEachGraph(model, [&](Graph& graph) {
    for (Tensor* tensor : graph.initializers) fn(*tensor, TensorRole::kInitializer);
    for (SparseTensor* sparse : graph.sparse_initializers) {
      visitSparse(sparse, TensorRole::kSparseInitializer, fn);
    }
    for (Node* node = graph.first_node; node != nullptr; node = node->next) {
      for (const Attribute* attribute : node->attributes) visitAttributeTensors(*attribute, fn);
    }
  });
  for (const Function* function : model.functions) {
    for (const Attribute* attribute : function->attribute_proto) {
      visitAttributeTensors(*attribute, fn);
    }
  }
}

}  // namespace onyx
