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

/// A value name for `graph` that isNameInScope does not find: `hint` itself when free,
/// else `hint_N` for the next free N of the graph's counter. The text lives in `arena`.
/// An empty hint gives `v`, `v_1`, ... Each try costs isNameInScope.
std::string_view uniqueValueName(Arena& arena, Graph& graph, std::string_view hint);

/// Renames `value` (attached to its graph) to `new_name`, which must be non-empty and not
/// taken in its graph's scope. Every reader sees the new name (they hold the value, not
/// the name); its initializer tensor, input and value_info entries and the graph's
/// quantization annotations follow. O(1) plus isNameInScope, plus O(annotations).
Status renameValue(Arena& arena, Value& value, std::string_view new_name);

}  // namespace onyx

#pragma GCC visibility pop
