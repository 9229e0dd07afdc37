#include "onyx/ir/name_table.h"

#include "onyx/ir/value.h"

namespace onyx {

void NameTable::put(Arena& arena, Value* value) {
  bool added = false;
  Value* found = findOrAdd(arena, value->name(), [&] {
    added = true;
    return value;
  });
  if (added || found == value) return;
  uint64_t hash = hashName(value->name());
  for (size_t i = hash & (capacity_ - 1);; i = (i + 1) & (capacity_ - 1)) {
    if (slots_[i].value == found) {
      slots_[i].value = value;
      return;
    }
  }
}

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

void NameTable::reserve(Arena& arena, size_t count) {
  size_t capacity = 16;
  while (capacity * 3 < count * 4) capacity *= 2;
  if (capacity > capacity_) rehash(arena, capacity);
}

void NameTable::grow(Arena& arena) { rehash(arena, capacity_ == 0 ? 16 : capacity_ * 2); }

void NameTable::rehash(Arena& arena, size_t capacity) {
  Slot* old = slots_;
  size_t old_capacity = capacity_;
  capacity_ = capacity;
  slots_ = arena.allocateArray<Slot>(capacity_);
  std::memset(static_cast<void*>(slots_), 0, capacity_ * sizeof(Slot));
  for (size_t i = 0; i < old_capacity; ++i) {
    if (old[i].value == nullptr) continue;
    // The tag is the hash's low 32 bits, all a slot index needs below 2^32 slots.
    size_t j = old[i].tag & (capacity_ - 1);
    while (slots_[j].value != nullptr) j = (j + 1) & (capacity_ - 1);
    slots_[j] = old[i];
  }
}

}  // namespace onyx
