#include "onyx/core/arena.h"

#include <sys/mman.h>

#include <cstdlib>

namespace onyx {

namespace {

constexpr size_t kFirstBlockBytes = size_t{64} << 10;
constexpr size_t kLargestBlockBytes = size_t{64} << 20;
constexpr size_t kHugePageBytes = size_t{2} << 20;

}  // namespace

Arena::~Arena() {
  while (blocks_ != nullptr) {
    Block* previous = blocks_->previous;
    munmap(blocks_, blocks_->size);
    blocks_ = previous;
  }
}

void* Arena::allocateSlow(size_t bytes, size_t alignment) {
  // Blocks double up to 64 MiB so that a big model needs few of them; large ones ask for
  // transparent huge pages, because a model's arena is written once, front to back, and
  // faulting it in 4 KiB at a time is most of what building a large graph costs.
  size_t size = reserved_ == 0 ? kFirstBlockBytes : reserved_;
  if (size > kLargestBlockBytes) size = kLargestBlockBytes;
  size_t needed = bytes + alignment + sizeof(Block);
  if (size < needed) size = (needed + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) std::abort();  // out of memory: as operator new would end
  if (size >= kHugePageBytes) madvise(memory, size, MADV_HUGEPAGE);
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
