// onyx/ir/name_table.h — the names a graph scope defines, looked up in O(1).
//
// Open addressing over an arena array; keys are views that live as long as the model.
// Not thread-safe for writing; concurrent lookups on an unchanging table are safe.
#pragma once

#include <cstdint>
#include <string_view>

#include "onyx/core/arena.h"

namespace onyx {

struct Value;

class NameTable {
 public:
  Value* find(std::string_view name) const {
    if (capacity_ == 0) return nullptr;
    uint64_t hash = hashName(name);
    for (size_t i = hash & (capacity_ - 1);; i = (i + 1) & (capacity_ - 1)) {
      const Slot& slot = slots_[i];
      if (slot.value == nullptr) return nullptr;
      if (slot.hash == hash && slot.name == name) return slot.value;
    }
  }

  /// Adds or replaces the entry for `name`.
  void put(Arena& arena, std::string_view name, Value* value) {
    if ((size_ + 1) * 2 > capacity_) rehash(arena, capacity_ == 0 ? 16 : capacity_ * 2);
    uint64_t hash = hashName(name);
    for (size_t i = hash & (capacity_ - 1);; i = (i + 1) & (capacity_ - 1)) {
      Slot& slot = slots_[i];
      if (slot.value == nullptr) {
        slot = Slot{hash, name, value};
        ++size_;
        return;
      }
      if (slot.hash == hash && slot.name == name) {
        slot.value = value;
        return;
      }
    }
  }

  size_t size() const { return size_; }

  static uint64_t hashName(std::string_view name) {
    // FNV-1a with a final mix: names are short, and this needs no tables.
    uint64_t h = 0xcbf29ce484222325ull;
    for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h;
  }

 private:
  struct Slot {
    uint64_t hash;
    std::string_view name;
    Value* value;
  };

  void rehash(Arena& arena, size_t capacity) {
    Slot* old = slots_;
    size_t old_capacity = capacity_;
    slots_ = arena.allocateArray<Slot>(capacity);
    for (size_t i = 0; i < capacity; ++i) slots_[i] = Slot{0, {}, nullptr};
    capacity_ = capacity;
    size_ = 0;
    for (size_t i = 0; i < old_capacity; ++i) {
      if (old[i].value == nullptr) continue;
      for (size_t j = old[i].hash & (capacity_ - 1);; j = (j + 1) & (capacity_ - 1)) {
        if (slots_[j].value == nullptr) {
          slots_[j] = old[i];
          ++size_;
          break;
        }
      }
    }
  }

  Slot* slots_ = nullptr;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

}  // namespace onyx
