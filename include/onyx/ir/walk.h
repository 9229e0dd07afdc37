// onyx/ir/walk.h — visiting every graph and every tensor a model holds.
#pragma once

#include <functional>
#include <string>

#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Calls `fn` on the main graph, each training graph, each function body, and every graph
/// held by an attribute anywhere inside them (outer graphs before the graphs they hold).
void forEachGraph(const Model& model, const std::function<void(Graph&)>& fn);

enum class TensorRole : uint8_t {
  kInitializer,        // a graph's dense initializer
  kSparseInitializer,  // values or indices of a graph's sparse initializer
  kAttribute,          // an attribute's value (t, tensors, sparse_tensor(s)), node or default
};

/// Calls `fn` on every TensorProto in the model, with where it sits.
void forEachTensor(const Model& model, const std::function<void(Tensor&, TensorRole)>& fn);

/// Where `tensor` sits in `model`, as a diagnostic path such as
/// `graph.node[3](conv).attribute[0](value).t` or `graph.initializer[2](w)`; empty when the
/// model does not hold it. Walks the model: meant for error messages, not hot paths.
std::string tensorPath(const Model& model, const Tensor* tensor);

}  // namespace onyx

#pragma GCC visibility pop
