#include "onyx/core/buffer_pool.h"
#include "core/array_bytes.h"

#include <algorithm>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

namespace onyx {

namespace {

// Kernels vectorise: 64-byte alignment lets them use aligned loads on every CPU.
constexpr std::align_val_t kAlignment{64};
// Below this, malloc's own free lists reuse memory well; above it, blocks come from mmap.
constexpr size_t kPooledFrom = size_t{64} << 10;
constexpr size_t kPage = 4096;

std::byte* newBlock(size_t bytes) {
  return static_cast<std::byte*>(::operator new(std::max<size_t>(bytes, 1), kAlignment));
}

void deleteBlock(std::byte* block) { ::operator delete(block, kAlignment); }

thread_local std::shared_ptr<BufferPool::State> current_pool;

}  // namespace

struct BufferPool::State {
  explicit State(size_t max_bytes) : max_cached_bytes(max_bytes) {}
  ~State() {
    for (auto& [size, blocks] : free_blocks) {
      for (std::byte* block : blocks) deleteBlock(block);
    }
  }

  std::byte* take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto found = free_blocks.find(bytes);
      if (found != free_blocks.end() && !found->second.empty()) {
        std::byte* block = found->second.back();
        found->second.pop_back();
        cached_bytes -= bytes;
        return block;
      }
    }
    return newBlock(bytes);
  }

  void give(std::byte* block, size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (cached_bytes + bytes <= max_cached_bytes) {
        free_blocks[bytes].push_back(block);
        cached_bytes += bytes;
        return;
      }
    }
    deleteBlock(block);
  }

  std::mutex mutex;
  std::unordered_map<size_t, std::vector<std::byte*>> free_blocks;
  size_t cached_bytes = 0;
  size_t max_cached_bytes;
};

BufferPool::BufferPool(size_t max_cached_bytes)
    : state_(std::make_shared<State>(max_cached_bytes)) {}

BufferPool::~BufferPool() = default;

size_t BufferPool::cachedBytes() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->cached_bytes;
}

BufferPoolScope::BufferPoolScope(BufferPool& pool) : previous_(std::move(current_pool)) {
  current_pool = pool.state_;
}

BufferPoolScope::~BufferPoolScope() { current_pool = std::move(previous_); }

namespace core_internal {

std::shared_ptr<std::byte[]> allocateArrayBytes(size_t bytes) {
  if (current_pool == nullptr || bytes < kPooledFrom) {
    return std::shared_ptr<std::byte[]>(newBlock(bytes), deleteBlock);
  }
  size_t rounded = (bytes + kPage - 1) / kPage * kPage;
  // The deleter keeps the pool's state alive: an array may outlive the pool.
  std::shared_ptr<BufferPool::State> pool = current_pool;
  return std::shared_ptr<std::byte[]>(
      pool->take(rounded), [pool, rounded](std::byte* block) { pool->give(block, rounded); });
}

}  // namespace core_internal

}  // namespace onyx
