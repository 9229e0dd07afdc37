// onyx/ir/metadata.h — key/value lists (metadata_props of models, graphs, nodes, functions,
// value infos and tensors; quantization parameters).
//
// The lists are small and keep their order, as the file had it; lookups are linear.
#pragma once

#include <optional>
#include <string_view>

#include "onyx/ir/fields.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// The value for `key` (the last entry wins, as in a protobuf map), or nullopt. O(entries).
std::optional<std::string_view> metadataValue(const ArenaList<StringStringEntry>& entries,
                                              std::string_view key);

/// Sets `key` to `value`: the last entry with that key changes, or one is appended.
/// Both strings are copied into `arena`. O(entries).
void setMetadata(Arena& arena, ArenaList<StringStringEntry>& entries, std::string_view key,
                 std::string_view value);

/// Removes every entry with `key`; false when there was none. O(entries).
bool removeMetadata(ArenaList<StringStringEntry>& entries, std::string_view key);

}  // namespace onyx

#pragma GCC visibility pop
