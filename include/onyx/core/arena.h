// onyx/core/arena.h — the per-model arena and the small vector that lives in it.
//
// A model's nodes, values, attributes and names are allocated from one arena and freed
// together with the model. Objects in the arena are never destroyed one by one, so
// everything stored there must be trivially destructible or hold only arena memory.
// An arena is not thread-safe: mutate a model from one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  void* allocate(size_t bytes, size_t alignment) {
    uintptr_t at = (reinterpret_cast<uintptr_t>(next_) + alignment - 1) & ~(alignment - 1);
    if (at + bytes > reinterpret_cast<uintptr_t>(end_)) return allocateSlow(bytes, alignment);
    next_ = reinterpret_cast<char*>(at + bytes);
    return reinterpret_cast<void*>(at);
  }

  template <class T, class... Args>
  T* make(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>,
                  "arena objects are never destroyed; they must not own other memory");
    return new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }

  template <class T>
  T* allocateArray(size_t count) {
    static_assert(std::is_trivially_destructible_v<T>);
    return static_cast<T*>(allocate(count * sizeof(T), alignof(T)));
  }

  /// Copies `text` into the arena, so that the view outlives its source.
  std::string_view copy(std::string_view text) {
    if (text.empty()) return std::string_view(kEmpty, 0);
    char* bytes = static_cast<char*>(allocate(text.size(), 1));
    std::memcpy(bytes, text.data(), text.size());
    return {bytes, text.size()};
  }

  /// Takes over every block of `other`, which is left empty: what was allocated there now
  /// lives as long as this arena. Lets threads build parts of one model in arenas of their
  /// own, without locking, and hand them over when done.
  void adopt(Arena& other);

  /// Bytes obtained from the system so far.
  size_t reservedBytes() const { return reserved_; }
  /// Bytes handed out or skipped, up to the current position in the current block.
  size_t usedBytes() const { return reserved_ - static_cast<size_t>(end_ - next_); }

 private:
  struct Block {
    Block* previous;
    size_t size;
  };

  void* allocateSlow(size_t bytes, size_t alignment);

  static constexpr char kEmpty[1] = {0};
  char* next_ = nullptr;
  char* end_ = nullptr;
  Block* blocks_ = nullptr;
  size_t reserved_ = 0;
};

/// A growable array whose storage comes from an Arena: 16 bytes, no destructor.
/// Growth takes the arena explicitly because the list does not remember it.
///
/// Sizes are 32-bit: a large graph holds hundreds of thousands of these lists, and their
/// bytes are written on every load. A list of 2^32 elements would need 16 GiB or more of
/// arena; asking for one ends the process as running out of memory does.
template <class T>
class ArenaList {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  static constexpr size_t kMaxSize = UINT32_MAX;

  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void push_back(Arena& arena, const T& value) {
    if (size_ == capacity_) grow(arena, size_t{size_} + 1);
    data_[size_++] = value;
  }
  T& emplace_back(Arena& arena) {
    if (size_ == capacity_) grow(arena, size_t{size_} + 1);
    data_[size_] = T{};
    return data_[size_++];
  }
  void reserve(Arena& arena, size_t capacity) {
    if (capacity > capacity_) grow(arena, capacity);
  }
  /// Removes element `i`, keeping the order of the rest.
  void erase(size_t i) {
    std::memmove(static_cast<void*>(data_ + i), data_ + i + 1, (size_ - i - 1) * sizeof(T));
    --size_;
  }
  void insert(Arena& arena, size_t i, const T& value) {
    if (size_ == capacity_) grow(arena, size_t{size_} + 1);
    std::memmove(static_cast<void*>(data_ + i + 1), data_ + i, (size_ - i) * sizeof(T));
    data_[i] = value;
    ++size_;
  }
  /// A copy in storage of its own: unlike assign() onto a bitwise copy, which would write
  /// into the buffer it shares with the original.
  ArenaList copy(Arena& arena) const {
    ArenaList result;
    result.assign(arena, data_, size_);
    return result;
  }
  /// Replaces the contents with `count` elements from `source`, reusing the storage when it
  /// has room, else allocating storage of exactly that size.
  void assign(Arena& arena, const T* source, size_t count) {
    if (count > capacity_) {
      if (count > kMaxSize) std::abort();
      data_ = arena.allocateArray<T>(count);
      capacity_ = static_cast<uint32_t>(count);
    }
    if (count != 0) std::memcpy(static_cast<void*>(data_), source, count * sizeof(T));
    size_ = static_cast<uint32_t>(count);
  }
  void clear() { size_ = 0; }
  /// Drops the elements from `size` on.
  void truncate(size_t size) {
    if (size < size_) size_ = static_cast<uint32_t>(size);
  }
  void resize(Arena& arena, size_t size) {
    reserve(arena, size);
    for (size_t i = size_; i < size; ++i) data_[i] = T{};
    size_ = static_cast<uint32_t>(size);
  }

 private:
  void grow(Arena& arena, size_t needed) {
    if (needed > kMaxSize) std::abort();
    size_t capacity = capacity_ < 4 ? 4 : size_t{capacity_} * 2;
    if (capacity < needed) capacity = needed;
    if (capacity > kMaxSize) capacity = kMaxSize;
    T* bigger = arena.allocateArray<T>(capacity);
    if (size_ != 0) std::memcpy(static_cast<void*>(bigger), data_, size_ * sizeof(T));
    data_ = bigger;
    capacity_ = static_cast<uint32_t>(capacity);
  }

  T* data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;
};

}  // namespace onyx

#pragma GCC visibility pop
