// Internal: adding names to a graph's NameTable. Every addition may grow the table, which
// allocates in the model's arena, so only the IR's own code (the loader, GraphEditor, Patch,
// clones) adds names; users see a table through Graph::names() and name values through
// GraphEditor. Not installed.
#pragma once

#include <cstdint>
#include <string_view>

#include "onyx/core/arena.h"
#include "onyx/ir/name_table.h"

namespace onyx::ir_internal {

class NameTableWriter {
 public:
  /// The value named `name`, or — when there is none — `make()`'s result, added under
  /// that name (which must be the new value's own name and outlive the table). One hash
  /// for both. Names are shorter than NameTable::kMaxNameBytes.
  template <class Make>
  static Value* findOrAdd(NameTable& table, Arena& arena, std::string_view name, Make&& make) {
    return findOrAdd(table, arena, name, NameTable::hashName(name), make);
  }
  /// findOrAdd() with `hash` = NameTable::hashName(name) computed by the caller.
  template <class Make>
  static Value* findOrAdd(NameTable& table, Arena& arena, std::string_view name, uint64_t hash,
                          Make&& make) {
    if ((table.size_ + 1) * 4 > table.capacity_ * 3) grow(table, arena);
    size_t mask = table.capacity_ - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      NameTable::Slot& slot = table.slots_[i];
      if (slot.value == nullptr) {
        slot.value = make();
        slot.tag = static_cast<uint32_t>(hash);
        slot.length = static_cast<uint32_t>(name.size());
        slot.name = name.data();
        ++table.size_;
        return slot.value;
      }
      if (slot.matches(hash, name)) return slot.value;
    }
  }

  /// Adds `value` under its own name, replacing the entry for that name if there is one.
  static void put(NameTable& table, Arena& arena, Value* value);
  /// Makes room for `count` names without growing again.
  static void reserve(NameTable& table, Arena& arena, size_t count);

 private:
  static void grow(NameTable& table, Arena& arena);
  static void rehash(NameTable& table, Arena& arena, size_t capacity);
};

}  // namespace onyx::ir_internal
