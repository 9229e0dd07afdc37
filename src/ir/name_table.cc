#include "onyx/ir/name_table.h"

#include "onyx/ir/value.h"

namespace onyx {

void NameTable::put(Arena& arena, Value* value) {
  bool added = false;
  Value* found = findOrAdd(arena, value->name, [&] {
    added = true;
    return value;
  });
  if (added || found == value) return;
  uint64_t hash = hashName(value->name);
  for (size_t i = hash & (capacity_ - 1);; i = (i + 1) & (capacity_ - 1)) {
    if (slots_[i].value == found) {
      slots_[i].value = value;
      return;
    }
  }
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
