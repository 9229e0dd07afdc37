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

// Setting a key copies strings: GraphEditor::setMetadata.
/// Removes every entry with `key`; false when there was none. O(entries).
bool removeMetadata(ArenaList<StringStringEntry>& entries, std::string_view key);

}  // namespace onyx

#pragma GCC visibility pop
