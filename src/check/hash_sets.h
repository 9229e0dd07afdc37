// Internal: the sets the checker keeps while it walks — pointers (nodes already walked,
// values already declared; core/pointer_set.h) and names (node names, function parameters).
// Open addressing over one array, no allocation per element: a walk of 200,000 nodes
// inserts and looks up hundreds of thousands of entries, and std::unordered_set would
// allocate for each.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/pointer_set.h"
#include "onyx/ir/name_table.h"

namespace onyx::check {

/// A set of names (views: the names must outlive the set).
class NameSet {
 public:
  /// Adds `name`; false when it was there already.
  bool insert(std::string_view name) { return insert(name, NameTable::hashName(name)); }
  /// insert() with `hash` = NameTable::hashName(name) computed by the caller.
  bool insert(std::string_view name, uint64_t hash) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    for (size_t i = hash & mask();; i = (i + 1) & mask()) {
      Slot& slot = slots_[i];
      if (!slot.used) {
        slot = {hash, name, true};
        ++size_;
        return true;
      }
      if (slot.hash == hash && slot.name == name) return false;
    }
  }
  /// Makes room for `count` names without growing again.
  void reserve(size_t count) {
    size_t capacity = 16;
    while (capacity * 3 < count * 4) capacity *= 2;
    if (capacity > slots_.size()) rehash(capacity);
  }
  /// Asks the CPU to bring in the slot an insert of a name with `hash` starts at, so that
  /// a batch of inserts overlaps its cache misses.
  void prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & mask()]);
  }
  bool contains(std::string_view name) const {
    if (slots_.empty()) return false;
    uint64_t hash = NameTable::hashName(name);
    for (size_t i = hash & mask();; i = (i + 1) & mask()) {
      const Slot& slot = slots_[i];
      if (!slot.used) return false;
      if (slot.hash == hash && slot.name == name) return true;
    }
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    std::string_view name;
    bool used = false;
  };
  size_t mask() const { return slots_.size() - 1; }
  void grow() { rehash(slots_.empty() ? 16 : slots_.size() * 2); }
  void rehash(size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot());
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.used) insert(slot.name, slot.hash);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace onyx::check
