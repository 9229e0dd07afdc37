#include "onyx/core/arena.h"

#include <sys/mman.h>

#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

namespace onyx {

namespace {

constexpr size_t kFirstBlockBytes = size_t{64} << 10;
constexpr size_t kLargestBlockBytes = size_t{64} << 20;
constexpr size_t kHugePageBytes = size_t{2} << 20;
constexpr size_t kPoolLimitBytes = size_t{1} << 30;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Blocks of arenas that were freed, kept for the next arena. A fresh block costs a page
// fault and the kernel's zeroing for every page, which is most of the time it takes to
// build a large graph; a process that loads model after model (a converter, a test
// runner, a server) reuses the same pages instead. Bounded, and the pooled pages are
// marked MADV_FREE so that the kernel may take them back under memory pressure. Holds
// only free memory: no state anyone can observe.
class BlockPool {
 public:
  static BlockPool& instance() {
    static BlockPool* pool = new BlockPool();  // never destroyed: arenas may outlive exit
    return *pool;
  }
  /// The smallest pooled block of `size` to 4 x `size` bytes (its size in `size`), or
  /// null. Not only an exact fit: arenas filled by several threads ask for different sizes
  /// from one load to the next; but not a block so big that a small arena would hold
  /// what the next large one needs.
  void* take(size_t& size) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t best = blocks_.size();
    for (size_t i = 0; i < blocks_.size(); ++i) {
      size_t candidate = blocks_[i].size;
      if (candidate >= size && candidate / 4 <= size &&
          (best == blocks_.size() || candidate < blocks_[best].size)) {
        best = i;
      }
    }
    if (best == blocks_.size()) return nullptr;
    void* memory = blocks_[best].memory;
    size = blocks_[best].size;
    pooled_ -= size;
    blocks_[best] = blocks_.back();
    blocks_.pop_back();
    return memory;
  }
  bool give(void* memory, size_t size) {
    // Under AddressSanitizer freed blocks are unmapped, so that a use after the model is
    // gone faults instead of reading a pooled block.
    if (kSanitized) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    if (pooled_ + size > kPoolLimitBytes) return false;
    madvise(memory, size, MADV_FREE);
    blocks_.push_back({memory, size});
    pooled_ += size;
    return true;
  }

 private:
  struct Entry {
    void* memory;
    size_t size;
  };
  std::mutex mutex_;
  std::vector<Entry> blocks_;
  size_t pooled_ = 0;
};

}  // namespace

Arena::~Arena() {
  while (blocks_ != nullptr) {
    Block* previous = blocks_->previous;
    size_t size = blocks_->size;
    if (!BlockPool::instance().give(blocks_, size)) munmap(blocks_, size);
    blocks_ = previous;
  }
}

void Arena::adopt(Arena& other) {
  if (other.blocks_ == nullptr) return;
  if (blocks_ == nullptr) {
    std::swap(next_, other.next_);
    std::swap(end_, other.end_);
    std::swap(blocks_, other.blocks_);
    std::swap(reserved_, other.reserved_);
    return;
  }
  // The adopted blocks go behind the current one, so allocation carries on where it was.
  Block* oldest = other.blocks_;
  while (oldest->previous != nullptr) oldest = oldest->previous;
  oldest->previous = blocks_->previous;
  blocks_->previous = other.blocks_;
  reserved_ += other.reserved_;
  other.next_ = nullptr;
  other.end_ = nullptr;
  other.blocks_ = nullptr;
  other.reserved_ = 0;
}

void* Arena::allocateSlow(size_t bytes, size_t alignment) {
  // Blocks double up to 64 MiB so that a big model needs few of them; large ones ask for
  // transparent huge pages, because a model's arena is written once, front to back, and
  // faulting it in 4 KiB at a time is most of what building a large graph costs.
  size_t size = reserved_ == 0 ? kFirstBlockBytes : reserved_;
  if (size > kLargestBlockBytes) size = kLargestBlockBytes;
  size_t needed = bytes + alignment + sizeof(Block);
  if (size < needed) size = (needed + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* memory = BlockPool::instance().take(size);
  if (memory == nullptr) {
    memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) std::abort();  // out of memory: as operator new would end
    if (size >= kHugePageBytes) madvise(memory, size, MADV_HUGEPAGE);
  }
  Block* block = static_cast<Block*>(memory);
  block->previous = blocks_;
  block->size = size;
  blocks_ = block;
  reserved_ += size;
  next_ = reinterpret_cast<char*>(block + 1);
  end_ = static_cast<char*>(memory) + size;
  return allocate(bytes, alignment);
}

}  // namespace onyx
