// onyx/ir/name_table.h — the names a graph scope defines, looked up in O(1).
//
// Open addressing over an arena array of 24-byte slots: part of the hash, the name's length
// and bytes (a view, usually into the mapped file) and the value. Building a large graph
// is mostly name lookups; keeping the key in the slot means a lookup reads the slot and
// the name's bytes but never the Value, which for an old name is a cache miss.
// Not thread-safe for writing; concurrent lookups on an unchanging table are safe.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "onyx/core/arena.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct Value;
namespace ir_internal {
class NameTableWriter;
}

class NameTable {
 public:
  static constexpr size_t kMaxNameBytes = UINT32_MAX;

  Value* find(std::string_view name) const { return find(name, hashName(name)); }
  /// find() with `hash` = hashName(name) computed by the caller.
  Value* find(std::string_view name, uint64_t hash) const {
    if (capacity_ == 0) return nullptr;
    for (size_t i = hash & (capacity_ - 1);; i = (i + 1) & (capacity_ - 1)) {
      const Slot& slot = slots_[i];
      if (slot.value == nullptr) return nullptr;
      if (slot.matches(hash, name)) return slot.value;
    }
  }

  // Adding names allocates: the graph's own code does it (src/ir/name_table_writer.h).

  /// Removes the entry for `name`; false when there is none. O(1) expected: the entries
  /// after it in its probe run shift back, so lookups never meet a hole.
  bool erase(std::string_view name);

  /// Calls `fn(name, value)` for every entry, in table order (not creation order).
  template <class Fn>
  void forEach(Fn&& fn) const {
    for (size_t i = 0; i < capacity_; ++i) {
      if (slots_[i].value != nullptr)
        fn(std::string_view(slots_[i].name, slots_[i].length), slots_[i].value);
    }
  }

  /// Asks the CPU to bring in the slot where a lookup of a name with `hash` starts, so that
  /// a batch of lookups overlaps its cache misses instead of waiting for each in turn.
  void prefetch(uint64_t hash) const {
    if (capacity_ != 0) __builtin_prefetch(&slots_[hash & (capacity_ - 1)]);
  }

  /// The second step after prefetch(): once the slot has arrived, asks for the name and
  /// value it holds, which a lookup that finds it reads next.
  void prefetchEntry(uint64_t hash) const {
    if (capacity_ == 0) return;
    const Slot& slot = slots_[hash & (capacity_ - 1)];
    if (slot.value != nullptr) {
      __builtin_prefetch(slot.name);
      __builtin_prefetch(slot.value);
    }
  }

  size_t size() const { return size_; }

  static uint64_t hashName(std::string_view name) {
    // Eight bytes at a time with a multiply-xorshift mix: names are short but many.
    const char* p = name.data();
    size_t n = name.size();
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
    while (n >= 8) {
      h = mix(h ^ load8(p));
      p += 8;
      n -= 8;
    }
    if (n > 0) h = mix(h ^ tail(p, n, name.size() >= 8));
    return mix(h);
  }

 private:
  struct Slot {
    uint32_t tag;  // the low bits of the hash, to skip most name comparisons
    uint32_t length;
    const char* name;
    Value* value;

    bool matches(uint64_t hash, std::string_view key) const {
      return tag == static_cast<uint32_t>(hash) && length == key.size() &&
             std::memcmp(name, key.data(), key.size()) == 0;
    }
  };

  static uint64_t load8(const char* p) {
    uint64_t word;
    std::memcpy(&word, p, 8);  // little-endian, as every target onyx builds for
    return word;
  }
  /// The last `n` (1 to 7) bytes at `p` as a little-endian number. Read as whole words, not
  /// byte by byte into memory: a word just written byte-wise cannot be read back at once,
  /// and that stall was a fifth of decoding a node.
  static uint64_t tail(const char* p, size_t n, bool has_bytes_before) {
    if (has_bytes_before) return load8(p + n - 8) >> (8 * (8 - n));
    auto byte = [&](size_t i) { return uint64_t{static_cast<uint8_t>(p[i])}; };
    if (n >= 4) {
      uint32_t low;
      uint32_t high;
      std::memcpy(&low, p, 4);
      std::memcpy(&high, p + n - 4, 4);
      return low | (uint64_t{high} << (8 * (n - 4)));
    }
    return byte(0) | (byte(n / 2) << (8 * (n / 2))) | (byte(n - 1) << (8 * (n - 1)));
  }
  static uint64_t mix(uint64_t h) {
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
  }
  friend class ir_internal::NameTableWriter;

  Slot* slots_ = nullptr;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

}  // namespace onyx

#pragma GCC visibility pop
