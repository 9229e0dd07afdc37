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

/// A copy of every part of `source`: it serializes to the same bytes. The copy keeps the
/// source's arena and mapped files alive (it shares their bytes) and has an arena of its own.
Model cloneModel(const Model& source);

// Copies of parts, into a model: GraphEditor::cloneGraph, cloneFunction, cloneType,
// cloneTensor, cloneSparseTensor.

}  // namespace onyx

#pragma GCC visibility pop
