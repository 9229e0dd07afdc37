// Internal: a set of pointers by open addressing over one array, without an allocation per
// element. The checker's walk, the topological sort and the passes insert and look up
// hundreds of thousands of nodes and values; std::unordered_set allocates for each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace onyx {

/// A pointer's bits mixed so that neighbouring addresses spread over a table's slots.
inline uint64_t hashPointer(const void* pointer) {
  auto bits = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer));
  bits ^= bits >> 33;
  bits *= 0xff51afd7ed558ccdull;
  return bits ^ (bits >> 33);
}

/// A set of non-null pointers.
class PointerSet {
 public:
  /// Makes room for `count` pointers without growing again.
  void reserve(size_t count) {
    size_t capacity = 64;
    while (capacity * 3 < count * 4) capacity *= 2;
    if (capacity > slots_.size()) rehash(capacity);
  }
  /// Adds `pointer`; false when it was there already.
  bool insert(const void* pointer) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    for (size_t i = hashPointer(pointer) & mask();; i = (i + 1) & mask()) {
      if (slots_[i] == nullptr) {
        slots_[i] = pointer;
        ++size_;
        return true;
      }
      if (slots_[i] == pointer) return false;
    }
  }
  bool contains(const void* pointer) const {
    if (slots_.empty()) return false;
    for (size_t i = hashPointer(pointer) & mask();; i = (i + 1) & mask()) {
      if (slots_[i] == nullptr) return false;
      if (slots_[i] == pointer) return true;
    }
  }

 private:
  size_t mask() const { return slots_.size() - 1; }
  void grow() { rehash(slots_.empty() ? 64 : slots_.size() * 2); }
  void rehash(size_t capacity) {
    std::vector<const void*> old = std::move(slots_);
    slots_.assign(capacity, nullptr);
    size_ = 0;
    for (const void* pointer : old) {
      if (pointer != nullptr) insert(pointer);
    }
  }

  std::vector<const void*> slots_;
  size_t size_ = 0;
};

}  // namespace onyx
