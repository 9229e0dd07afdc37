// onyx/ir/clone.h — deep copies of graphs, functions and models.
//
// A clone has its own nodes, values, use-lists, attributes, tensors and types, allocated
// in the target arena: changing it never changes the source. Strings and tensor data are
// immutable views, so a clone shares them with the source instead of copying the
// weights. Cloning into the source's own model is always safe; cloning into another
// model needs Model::shareBytesOf(source model) first (cloneModel does it), so that the
// shared bytes live as long as the clone.
//
// Values the source reads from outside itself (captures of an enclosing graph) resolve by
// name in the clone's new enclosing graphs; a name found nowhere becomes an undefined
// value of the clone, as the decoder keeps such reads. Removed values and value_info
// entries are not copied. Costs are linear in what is copied.
#pragma once

#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// A copy of `source` scoped inside `parent` (null: a root graph) and held by an
/// attribute of `owner` (a node of `parent`; give the clone to Node::setGraphAttr).
Graph* cloneGraph(Arena& arena, const Graph& source, Graph* parent = nullptr,
                  Node* owner = nullptr);

/// A copy of `source`, not yet in a model (Model::addFunction; change its key first when
/// adding it beside the source).
Function* cloneFunction(Arena& arena, const Function& source);

/// A copy of every part of `source`: it serializes to the same bytes. The copy keeps the
/// source's arena and mapped files alive (it shares their bytes) and has an arena of its own.
Model cloneModel(const Model& source);

Type* cloneType(Arena& arena, const Type& source);
Tensor* cloneTensor(Arena& arena, const Tensor& source);
SparseTensor* cloneSparseTensor(Arena& arena, const SparseTensor& source);

}  // namespace onyx

#pragma GCC visibility pop
