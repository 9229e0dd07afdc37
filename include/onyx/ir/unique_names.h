// onyx/ir/unique_names.h — value names: which are taken in a scope, fresh ones, renaming.
#pragma once

#include <string_view>

#include "onyx/core/arena.h"
#include "onyx/ir/graph.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Whether defining `name` in `graph` would clash: a value of `graph` or of an enclosing
/// graph has it (it is visible), or a graph nested in `graph` defines it (it would be
/// shadowed there). Names read but defined nowhere count as taken. O(nesting depth +
/// graphs nested in `graph`).
bool isNameInScope(const Graph& graph, std::string_view name);

// A fresh name (GraphEditor::uniqueName) and renaming (GraphEditor::rename) allocate. A
// renamed value's readers see the new name (they hold the value, not the name); its
// initializer tensor, input and value_info entries and the graph's quantization annotations
// follow.

}  // namespace onyx

#pragma GCC visibility pop
