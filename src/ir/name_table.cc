#include "onyx/ir/name_table.h"

#include "ir/name_table_writer.h"

#include "onyx/ir/value.h"

namespace onyx {

bool NameTable::erase(std::string_view name) {
  if (capacity_ == 0) return false;
  uint64_t hash = hashName(name);
  size_t mask = capacity_ - 1;
  size_t hole = hash & mask;
  for (;; hole = (hole + 1) & mask) {
    if (slots_[hole].value == nullptr) return false;
    if (slots_[hole].matches(hash, name)) break;
  }
  // Backward-shift deletion: move up each later entry of the run whose home slot is not
  // between the hole and itself (cyclically), so that every entry stays reachable.
  for (size_t next = (hole + 1) & mask; slots_[next].value != nullptr; next = (next + 1) & mask) {
    size_t home = slots_[next].tag & mask;
    bool stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
    if (stays) continue;
    slots_[hole] = slots_[next];
    hole = next;
  }
  slots_[hole].value = nullptr;
  --size_;
  return true;
}

namespace ir_internal {

void NameTableWriter::put(NameTable& table, Arena& arena, Value* value) {
  bool added = false;
  Value* found = findOrAdd(table, arena, value->name(), [&] {
    added = true;
    return value;
  });
  if (added || found == value) return;
  uint64_t hash = NameTable::hashName(value->name());
  size_t mask = table.capacity_ - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    if (table.slots_[i].value == found) {
      table.slots_[i].value = value;
      return;
    }
  }
}

void NameTableWriter::reserve(NameTable& table, Arena& arena, size_t count) {
  size_t capacity = 16;
  while (capacity * 3 < count * 4) capacity *= 2;
  if (capacity > table.capacity_) rehash(table, arena, capacity);
}

void NameTableWriter::grow(NameTable& table, Arena& arena) {
  rehash(table, arena, table.capacity_ == 0 ? 16 : table.capacity_ * 2);
}

void NameTableWriter::rehash(NameTable& table, Arena& arena, size_t capacity) {
  NameTable::Slot* old = table.slots_;
  size_t old_capacity = table.capacity_;
  table.capacity_ = capacity;
  table.slots_ = arena.allocateArray<NameTable::Slot>(capacity);
  std::memset(static_cast<void*>(table.slots_), 0, capacity * sizeof(NameTable::Slot));
  size_t mask = capacity - 1;
  for (size_t i = 0; i < old_capacity; ++i) {
    if (old[i].value == nullptr) continue;
    // The tag is the hash's low 32 bits, all a slot index needs below 2^32 slots.
    size_t j = old[i].tag & mask;
    while (table.slots_[j].value != nullptr) j = (j + 1) & mask;
    table.slots_[j] = old[i];
  }
}

}  // namespace ir_internal

}  // namespace onyx
