#include "onyx/core/buffer_pool.h"
#include "core/array_bytes.h"
#include "onyx/core/array.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

namespace onyx {

namespace {

constexpr std::align_val_t kAlignment{Array::kAlignment};
// Below this, malloc's own free lists reuse memory well; above it, blocks come from mmap.
constexpr size_t kPooledFrom = size_t{64} << 10;
constexpr size_t kPage = 4096;

std::byte* newBlock(size_t bytes) {
  return static_cast<std::byte*>(::operator new(std::max<size_t>(bytes, 1), kAlignment));
}

void deleteBlock(std::byte* block) { ::operator delete(block, kAlignment); }

// A pooled block of at least a huge page is mapped on its own, aligned to and rounded up to
// huge pages, and offered to the kernel's transparent huge pages: a first run writes each
// page of its large activations once, and one 2 MiB page faults once where 4 KiB pages
// fault 512 times (the system's setting decides; "never" leaves small pages).
constexpr size_t kHugePage = size_t{2} << 20;

size_t hugeMappingBytes(size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

// Every pooled block is a mapping of its own, so that a block the pool gives back returns its
// pages to the system at once. From malloc, freed blocks of a few hundred KiB stayed in its
// free lists: a decoder's cache, a new size every token, left 40 MiB resident that way.
std::byte* newPooledBlock(size_t bytes) {
  if (bytes < kHugePage) {
    void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    return static_cast<std::byte*>(mapped);
  }
  size_t length = hugeMappingBytes(bytes);
  // Over-map by one huge page, then give back the ends that fall outside the aligned span.
  size_t mapped_length = length + kHugePage;
  void* mapped =
      mmap(nullptr, mapped_length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  auto start = reinterpret_cast<uintptr_t>(mapped);
  uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > start) munmap(mapped, aligned - start);
  uintptr_t end = start + mapped_length;
  if (end > aligned + length)
    munmap(reinterpret_cast<void*>(aligned + length), end - aligned - length);
  auto* block = reinterpret_cast<std::byte*>(aligned);
  madvise(block, length, MADV_HUGEPAGE);
  return block;
}

void deletePooledBlock(std::byte* block, size_t bytes) {
  munmap(block, bytes < kHugePage ? bytes : hugeMappingBytes(bytes));
}

// The size a pooled block of `bytes` takes: whole pages, and past 64 KiB steps of an eighth
// of the size's power of two (at most 12.5% more). A value one position longer each run (a
// decoder's cache) then asks for the block its last-but-one run freed for many runs in a
// row, instead of a new one every few; the pages a request leaves untouched are never made
// resident.
size_t pooledSize(size_t bytes) {
  const size_t step = std::max(kPage, std::bit_floor(bytes) / 8);
  return (bytes + step - 1) / step * step;
}

thread_local std::shared_ptr<BufferPool::State> current_pool;

// Freed blocks by size, kept for the next array of that size: one pool's own, or those every
// pool made by sharingFreedBlocks() shares.
//
// A block is matched by its size alone, so a value that grows from run to run (a decoder's
// cache, one position longer each token) never meets its freed block again: kept without
// bound, those blocks grew the process by the cache's size every token. The freed blocks are
// therefore held to at most the most bytes the pools sharing them ever had out at once, the
// oldest freed given back to the system first; except blocks of a size a run asked for in
// the run now going or the one before (BufferPool::runEnded counts the runs), up to
// kRecentPeaks times that peak. Those a run asks for again: an encoder's run needs more distinct
// blocks than it has out at once (a 1 MiB block early, four of 256 KiB later), and giving back
// the early ones at the end of every run made the next fault their pages in again, 17% of the
// run's time (5,440 page faults a run). A decoder's old sizes are not asked for again, and still
// go. The bound keeps a Loop whose value grows within one run from filling the cache.
//
// Four peaks: a Swin transformer's four stages each ask for sizes of their own, more than
// twice its peak in all (at two peaks it faulted 899 pages in again every run, 3% of its time;
// at four, none); peak resident memory stayed within that of two (bench/README.md, "The pool on
// exporter-shaped models").
constexpr size_t kRecentPeaks = 4;

struct FreeBlocks {
  explicit FreeBlocks(size_t max_bytes) : max_cached_bytes(max_bytes) {}
  ~FreeBlocks() {
    for (auto& [size, blocks] : free_blocks) {
      for (const Freed& freed : blocks) deletePooledBlock(freed.block, size);
    }
  }

  std::byte* take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      live_bytes += bytes;
      peak_live_bytes = std::max(peak_live_bytes, live_bytes);
      last_run_asked[bytes] = runs_ended;
      auto found = free_blocks.find(bytes);
      if (found != free_blocks.end() && !found->second.empty()) {
        const Freed freed = found->second.back();
        found->second.pop_back();
        by_age.erase(freed.stamp);
        cached_bytes -= bytes;
        return freed.block;
      }
    }
    return newPooledBlock(bytes);
  }

  void give(std::byte* block, size_t bytes) {
    std::vector<std::pair<std::byte*, size_t>> released;
    {
      std::lock_guard<std::mutex> lock(mutex);
      live_bytes -= bytes;
      if (cached_bytes + bytes <= max_cached_bytes) {
        const uint64_t stamp = next_stamp++;
        free_blocks[bytes].push_back({block, stamp});
        by_age.emplace(stamp, bytes);
        cached_bytes += bytes;
        block = nullptr;
        // Past the peak, the oldest that no recent run asked for go; past kRecentPeaks peaks (a
        // Loop whose values grow within one run), the oldest whatever their size.
        trim(peak_live_bytes, true, released);
        trim(kRecentPeaks * peak_live_bytes, false, released);
      }
    }
    if (block != nullptr) deletePooledBlock(block, bytes);
    for (const auto& [old_block, size] : released) deletePooledBlock(old_block, size);
  }

  // Gives back the oldest freed blocks (into `released`, to be unmapped outside the lock),
  // sparing those of sizes a recent run asked for when `spare_recent`, until the cache holds at
  // most `limit` bytes. Under the lock.
  void trim(size_t limit, bool spare_recent, std::vector<std::pair<std::byte*, size_t>>& released) {
    for (auto age = by_age.begin(); cached_bytes > limit && age != by_age.end();) {
      const uint64_t freed_at = age->first;
      const size_t size = age->second;
      if (spare_recent && askedRecently(size)) {
        ++age;
        continue;
      }
      std::vector<Freed>& same = free_blocks[size];
      auto at = std::find_if(same.begin(), same.end(),
                             [freed_at](const Freed& freed) { return freed.stamp == freed_at; });
      released.emplace_back(at->block, size);
      same.erase(at);
      if (same.empty()) last_run_asked.erase(size);
      age = by_age.erase(age);
      cached_bytes -= size;
    }
  }

  // Whether a run asked for blocks of `size` in the run now going or the one before; never
  // before any run ended (a pool no evaluator counts runs for keeps to the peak).
  bool askedRecently(size_t size) const {
    auto asked = last_run_asked.find(size);
    return runs_ended > 0 && asked != last_run_asked.end() && asked->second + 1 >= runs_ended;
  }

  struct Freed {
    std::byte* block;
    uint64_t stamp;  // the order it was given back in
  };
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<Freed>> free_blocks;
  std::map<uint64_t, size_t> by_age;  // stamp -> size, oldest first
  uint64_t next_stamp = 0;
  size_t cached_bytes = 0;
  size_t live_bytes = 0;       // out, from every pool that shares these blocks
  size_t peak_live_bytes = 0;  // the most ever out at once
  size_t max_cached_bytes;
  uint64_t runs_ended = 0;
  std::unordered_map<size_t, uint64_t> last_run_asked;  // size -> runs_ended when last asked
};

}  // namespace

struct BufferPool::State {
  explicit State(std::shared_ptr<FreeBlocks> blocks) : freed(std::move(blocks)) {}

  std::byte* take(size_t bytes) {
    live_bytes.fetch_add(bytes, std::memory_order_relaxed);
    return freed->take(bytes);
  }

  void give(std::byte* block, size_t bytes) {
    live_bytes.fetch_sub(bytes, std::memory_order_relaxed);
    freed->give(block, bytes);
  }

  std::shared_ptr<FreeBlocks> freed;
  std::atomic<size_t> live_bytes = 0;
  std::atomic<size_t> limit = kNoLimit;
  static constexpr size_t kNoLimit = SIZE_MAX;
};

BufferPool::BufferPool(size_t max_cached_bytes)
    : state_(std::make_shared<State>(std::make_shared<FreeBlocks>(max_cached_bytes))) {}

BufferPool::BufferPool(std::shared_ptr<State> state) : state_(std::move(state)) {}

BufferPool BufferPool::sharingFreedBlocks() {
  // Never destroyed: arrays freed during static destruction may still give blocks back.
  static auto* shared = new std::shared_ptr<FreeBlocks>(std::make_shared<FreeBlocks>(kSharedCap));
  return BufferPool(std::make_shared<State>(*shared));
}

BufferPool::~BufferPool() = default;

size_t BufferPool::cachedBytes() const {
  std::lock_guard<std::mutex> lock(state_->freed->mutex);
  return state_->freed->cached_bytes;
}

size_t BufferPool::liveBytes() const { return state_->live_bytes.load(std::memory_order_relaxed); }

void BufferPool::runEnded() {
  std::lock_guard<std::mutex> lock(state_->freed->mutex);
  ++state_->freed->runs_ended;
}

void BufferPool::setLimit(std::optional<size_t> bytes) {
  state_->limit.store(bytes.value_or(State::kNoLimit), std::memory_order_relaxed);
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
  size_t rounded = pooledSize(bytes);
  // The deleter keeps the pool's state alive: an array may outlive the pool.
  std::shared_ptr<BufferPool::State> pool = current_pool;
  return std::shared_ptr<std::byte[]>(
      pool->take(rounded), [pool, rounded](std::byte* block) { pool->give(block, rounded); });
}

bool currentPoolAdmits(size_t bytes) {
  if (current_pool == nullptr || bytes < kPooledFrom) return true;
  size_t limit = current_pool->limit.load(std::memory_order_relaxed);
  size_t live = current_pool->live_bytes.load(std::memory_order_relaxed);
  const size_t rounded = pooledSize(bytes);
  return live <= limit && rounded <= limit - live;  // kNoLimit admits all there can be
}

}  // namespace core_internal

}  // namespace onyx
