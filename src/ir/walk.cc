#include "onyx/ir/walk.h"

#include "core/place_path.h"

namespace onyx {

namespace {

void visitAttributeGraphs(const Attribute& attribute, const std::function<void(Graph&)>& fn);

void visitGraph(Graph& graph, const std::function<void(Graph&)>& fn) {
  fn(graph);
  // The graph lists the graphs its nodes hold (verifyModel checks it): with none, no node
  // needs a look, which keeps a walk of a flat graph O(1).
  if (graph.subgraphs().empty()) return;
  for (Node* node = graph.firstNode(); node != nullptr; node = node->next()) {
    for (const Attribute* attribute : node->attributes) visitAttributeGraphs(*attribute, fn);
  }
}

void visitAttributeGraphs(const Attribute& attribute, const std::function<void(Graph&)>& fn) {
  if (attribute.g != nullptr) visitGraph(*attribute.g, fn);
  for (Graph* graph : attribute.rare().graphs) visitGraph(*graph, fn);
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
  visitSparse(attribute.rare().sparse_tensor, TensorRole::kAttribute, fn);
  for (Tensor* tensor : attribute.rare().tensors) fn(*tensor, TensorRole::kAttribute);
  for (SparseTensor* sparse : attribute.rare().sparse_tensors) {
    visitSparse(sparse, TensorRole::kAttribute, fn);
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
    for (Node* node = graph.firstNode(); node != nullptr; node = node->next()) {
      for (const Attribute* attribute : node->attributes) visitAttributeTensors(*attribute, fn);
    }
  });
  for (const Function* function : model.functions) {
    for (const Attribute* attribute : function->attribute_proto) {
      visitAttributeTensors(*attribute, fn);
    }
  }
}

namespace {

bool findInGraph(const Graph& graph, const Tensor* tensor, std::string& path);

std::string_view sparseName(const SparseTensor& sparse) {
  return sparse.values ? sparse.values->nameOrEmpty() : std::string_view();
}

bool findInSparse(const SparseTensor* sparse, const Tensor* tensor, std::string& path) {
  if (sparse == nullptr) return false;
  if (sparse->values == tensor) return (path = "values", true);
  if (sparse->indices == tensor) return (path = "indices", true);
  return false;
}

bool findInAttribute(const Attribute& attribute, const Tensor* tensor, std::string& path) {
  std::string inner;
  if (attribute.t == tensor) return (path = "t", true);
  if (findInSparse(attribute.rare().sparse_tensor, tensor, inner))
    return (path = "sparse_tensor." + inner, true);
  if (attribute.g != nullptr && findInGraph(*attribute.g, tensor, inner)) {
    return (path = "g." + inner, true);
  }
  const AttributeRareFields& lists = attribute.rare();
  for (size_t i = 0; i < lists.tensors.size(); ++i) {
    if (lists.tensors[i] == tensor) {
      return (path = pathSegment("tensors", i, tensor->nameOrEmpty()), true);
    }
  }
  for (size_t i = 0; i < lists.sparse_tensors.size(); ++i) {
    if (findInSparse(lists.sparse_tensors[i], tensor, inner)) {
      return (path = pathSegment("sparse_tensors", i, sparseName(*lists.sparse_tensors[i])) + "." +
                     inner,
              true);
    }
  }
  for (size_t i = 0; i < lists.graphs.size(); ++i) {
    if (findInGraph(*lists.graphs[i], tensor, inner)) {
      return (path = pathSegment("graphs", i, lists.graphs[i]->name.value_or("")) + "." + inner,
              true);
    }
  }
  return false;
}

bool findInNodes(const Graph& graph, const Tensor* tensor, std::string& path) {
  size_t index = 0;
  for (const Node* node = graph.firstNode(); node != nullptr; node = node->next(), ++index) {
    for (size_t a = 0; a < node->attributes.size(); ++a) {
      const Attribute& attribute = *node->attributes[a];
      std::string inner;
      if (findInAttribute(attribute, tensor, inner)) {
        path = pathSegment("node", index, node->nameOrEmpty()) + "." +
               pathSegment("attribute", a, attribute.nameOrEmpty()) + "." + inner;
        return true;
      }
    }
  }
  return false;
}

bool findInGraph(const Graph& graph, const Tensor* tensor, std::string& path) {
  for (size_t i = 0; i < graph.initializers.size(); ++i) {
    if (graph.initializers[i] == tensor) {
      return (path = pathSegment("initializer", i, tensor->nameOrEmpty()), true);
    }
  }
  std::string inner;
  for (size_t i = 0; i < graph.sparse_initializers.size(); ++i) {
    if (findInSparse(graph.sparse_initializers[i], tensor, inner)) {
      return (
          path = pathSegment("sparse_initializer", i, sparseName(*graph.sparse_initializers[i])) +
                 "." + inner,
          true);
    }
  }
  return findInNodes(graph, tensor, path);
}

}  // namespace

std::string tensorPath(const Model& model, const Tensor* tensor) {
  std::string inner;
  if (model.graph != nullptr && findInGraph(*model.graph, tensor, inner)) return "graph." + inner;
  for (size_t i = 0; i < model.training_info.size(); ++i) {
    const TrainingInfo& info = *model.training_info[i];
    if (info.initialization != nullptr && findInGraph(*info.initialization, tensor, inner)) {
      return pathSegment("training_info", i) + ".initialization." + inner;
    }
    if (info.algorithm != nullptr && findInGraph(*info.algorithm, tensor, inner)) {
      return pathSegment("training_info", i) + ".algorithm." + inner;
    }
  }
  for (size_t i = 0; i < model.functions.size(); ++i) {
    const Function& function = *model.functions[i];
    std::string prefix = pathSegment("functions", i, function.nameOrEmpty());
    if (function.body != nullptr && findInNodes(*function.body, tensor, inner)) {
      return prefix + "." + inner;
    }
    for (size_t a = 0; a < function.attribute_proto.size(); ++a) {
      const Attribute& attribute = *function.attribute_proto[a];
      if (findInAttribute(attribute, tensor, inner)) {
        return prefix + "." + pathSegment("attribute_proto", a, attribute.nameOrEmpty()) + "." +
               inner;
      }
    }
  }
  return {};
}

}  // namespace onyx
