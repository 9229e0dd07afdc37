// onyx/core/buffer_pool.h — reusing the memory of freed Arrays.
//
// A model run allocates an array per node output and frees it after its last reader; the
// next run asks for the same sizes again. Fresh large blocks come from the system as
// untouched pages, each faulting on first write. While a BufferPool is active on a thread
// (a BufferPoolScope), the large arrays that thread allocates take their memory from the
// pool's freed blocks of the same size, and give it back when freed, wherever that happens
// (even after the scope ended, or from another thread). The evaluator keeps one per
// Evaluator.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

class BufferPool {
 public:
  /// Keeps up to `max_cached_bytes` of freed blocks of its own.
  explicit BufferPool(size_t max_cached_bytes = size_t{1} << 30);
  /// A pool whose freed blocks go to, and come from, the one set every pool made so shares
  /// (up to kSharedCap bytes in a process); what it has out and its limit are its own. The
  /// evaluator's executors are such pools: an idle session's freed activations serve the
  /// runs of another session of the process instead of each keeping its own.
  static BufferPool sharingFreedBlocks();
  static constexpr size_t kSharedCap = size_t{1} << 30;
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  /// The bytes of freed blocks the pool holds for reuse (for a sharing pool: all the
  /// sharing pools hold).
  size_t cachedBytes() const;
  /// The bytes of the blocks it has handed out that are not back yet.
  size_t liveBytes() const;
  /// The most bytes it may have out at once (nullopt: no bound): Array::allocate fails with
  /// kLimitExceeded for an array that would take it past that, on a thread where the pool is
  /// current. Other ways of making an array are not bounded.
  void setLimit(std::optional<size_t> bytes);
  /// Marks the end of a run (the evaluator's, after each): freed blocks of a size the run now
  /// going or the one before asked for are kept even past the most bytes ever out at once (up
  /// to four times that), since the next run asks for them again; others are given back first (see
  /// the .cc).
  void runEnded();

  struct State;

 private:
  friend class BufferPoolScope;
  explicit BufferPool(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

/// Makes `pool` the current one of this thread until destroyed (scopes nest).
class BufferPoolScope {
 public:
  explicit BufferPoolScope(BufferPool& pool);
  ~BufferPoolScope();
  BufferPoolScope(const BufferPoolScope&) = delete;
  BufferPoolScope& operator=(const BufferPoolScope&) = delete;

 private:
  std::shared_ptr<BufferPool::State> previous_;
};

}  // namespace onyx

#pragma GCC visibility pop
