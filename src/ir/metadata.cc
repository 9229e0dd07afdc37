#include "onyx/ir/metadata.h"
#include "onyx/ir/editor.h"

namespace onyx {

std::optional<std::string_view> metadataValue(const ArenaList<StringStringEntry>& entries,
                                              std::string_view key) {
  std::optional<std::string_view> found;
  for (const StringStringEntry& entry : entries) {
    if (entry.key.value_or("") == key) found = entry.value.value_or("");
  }
  return found;
}

void GraphEditor::setMetadata(ArenaList<StringStringEntry>& entries, std::string_view key,
                              std::string_view value) const {
  Arena& arena = *arena_;
  for (size_t i = entries.size(); i-- > 0;) {
    if (entries[i].key.value_or("") == key) {
      entries[i].value = arena.copy(value);
      return;
    }
  }
  StringStringEntry& entry = entries.emplace_back(arena);
  entry.key = arena.copy(key);
  entry.value = arena.copy(value);
}

bool removeMetadata(ArenaList<StringStringEntry>& entries, std::string_view key) {
  size_t kept = 0;
  for (const StringStringEntry& entry : entries) {
    if (entry.key.value_or("") != key) entries[kept++] = entry;
  }
  bool removed = kept != entries.size();
  entries.truncate(kept);
  return removed;
}

}  // namespace onyx
