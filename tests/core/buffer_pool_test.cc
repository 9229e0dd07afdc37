// Freed arrays' memory comes back for the next array of the same size while a pool is
// active, never to two live arrays at once, within the pool's limit; an array may outlive its
// pool.
#include "onyx/core/buffer_pool.h"

#include <gtest/gtest.h>

#include "onyx/core/array.h"

namespace onyx {
namespace {

TEST(BufferPool, AFreedLargeArrayIsReusedBySameSizedAllocation) {
  BufferPool pool;
  BufferPoolScope scope(pool);
  const std::byte* first = nullptr;
  {
    Array array(ElementType::kFloat, {256, 256});
    first = array.bytes().data();
  }
  Array again(ElementType::kFloat, {65536});
  EXPECT_EQ(again.bytes().data(), first);
  Array other(ElementType::kFloat, {256, 256});
  EXPECT_NE(other.bytes().data(), first) << "a block in use is not handed out twice";
}

TEST(BufferPool, AnArrayMayOutliveItsPool) {
  Array survivor;
  {
    BufferPool pool;
    BufferPoolScope scope(pool);
    survivor = Array(ElementType::kFloat, {256, 256});
    survivor.data<float>()[0] = 3.0f;
  }
  EXPECT_EQ(survivor.data<float>()[0], 3.0f);
  survivor = Array();  // frees into the pool's state, which lives until now
}

TEST(BufferPool, ThePoolKeepsNoMoreThanItsLimit) {
  BufferPool pool(1 << 20);
  BufferPoolScope scope(pool);
  { Array array(ElementType::kFloat, {1 << 19}); }  // 2 MiB: over the limit, not kept
  EXPECT_EQ(pool.cachedBytes(), 0u);
  { Array array(ElementType::kFloat, {1 << 16}); }  // 256 KiB: kept
  EXPECT_EQ(pool.cachedBytes(), size_t{1} << 18);
  Array again(ElementType::kFloat, {1 << 16});  // takes it back
  EXPECT_EQ(pool.cachedBytes(), 0u);
}

// A value one row longer each run (a decoder's cache) never meets its freed block again: the
// pool keeps no more freed bytes than it ever had out at once, or the blocks of the last two
// runs where they are more, giving back the oldest; however many runs go by.
TEST(BufferPool, BlocksOfGrowingSizesAreKeptNoMoreThanThePeakOut) {
  BufferPool pool;
  BufferPoolScope scope(pool);
  constexpr int64_t kRow = 1024;  // floats: 4 KiB, a page
  auto tokens = [&](int64_t from, int64_t to) {
    for (int64_t rows = from; rows < to; ++rows) {
      {
        Array cache(ElementType::kFloat, {rows, kRow});
        Array next(ElementType::kFloat, {rows + 1, kRow});  // both out at once, as a step has
      }
      pool.runEnded();  // one token a run, as the evaluator counts them
    }
  };
  tokens(64, 114);
  // The last two runs' blocks, two each of at most 120 rows (the size class of 113 and 114
  // rows); kept without bound, the freed blocks would be many times that.
  EXPECT_LE(pool.cachedBytes(), size_t{4 * 120 * kRow * 4});
  EXPECT_GT(pool.cachedBytes(), 0u);
  tokens(114, 228);
  EXPECT_LE(pool.cachedBytes(), size_t{4 * 240 * kRow * 4});
}

// Within one run (a Loop whose value grows each iteration) every size is one the run asked
// for; the blocks kept are still held to four times the most out at once.
TEST(BufferPool, GrowingSizesWithinOneRunAreKeptToFourTimesThePeak) {
  BufferPool pool;
  BufferPoolScope scope(pool);
  pool.runEnded();  // runs are counted
  constexpr int64_t kRow = 1024;
  for (int64_t rows = 64; rows < 256; ++rows) {
    Array grown(ElementType::kFloat, {rows, kRow});
  }
  // One array out at a time, the largest in a block of 256 rows.
  EXPECT_LE(pool.cachedBytes(), size_t{4 * 256 * kRow * 4});
  EXPECT_GT(pool.cachedBytes(), 0u);
}

// A run that needs more distinct blocks than it has out at once (one of 1 MiB, then four of
// 256 KiB) gets every one back the next run: none is given back to the system for its pages to
// fault in again, as they were when the pool kept only the peak.
TEST(BufferPool, BlocksARunAsksForAgainAreKeptPastThePeak) {
  BufferPool pool;
  BufferPoolScope scope(pool);
  auto run = [] {
    { Array wide(ElementType::kFloat, {1 << 18}); }  // 1 MiB
    Array a(ElementType::kFloat, {1 << 16}), b(ElementType::kFloat, {1 << 16});
    Array c(ElementType::kFloat, {1 << 16}), d(ElementType::kFloat, {1 << 16});
  };
  run();
  pool.runEnded();
  run();
  pool.runEnded();
  // The peak out at once is 1 MiB; both the 1 MiB block and the four 256 KiB ones are kept.
  EXPECT_EQ(pool.cachedBytes(), size_t{2} << 20);
  const std::byte* kept = nullptr;
  {
    Array wide(ElementType::kFloat, {1 << 18});
    kept = reinterpret_cast<const std::byte*>(wide.data<float>());
  }
  EXPECT_EQ(pool.cachedBytes(), size_t{2} << 20) << "the 1 MiB block went out and came back";
  EXPECT_NE(kept, nullptr);
}

// A run whose stages each ask for sizes of their own (a Swin graph's four) needs more than
// twice the peak in distinct blocks: three of different sizes, one out at a time, are all kept.
TEST(BufferPool, ThreeStagesOfTheirOwnSizesAreAllKept) {
  BufferPool pool;
  BufferPoolScope scope(pool);
  auto run = [] {
    { Array first(ElementType::kFloat, {1 << 18}); }   // 1 MiB
    { Array second(ElementType::kFloat, {7 << 15}); }  // 896 KiB
    { Array third(ElementType::kFloat, {3 << 16}); }   // 768 KiB
  };
  run();
  pool.runEnded();
  run();
  pool.runEnded();
  EXPECT_EQ(pool.cachedBytes(), size_t{(1 << 20) + (7 << 17) + (3 << 18)});
}

// Blocks come in size classes an eighth of a power of two apart: an array a few pages longer
// takes the block a shorter one freed, as a decoder's cache does from one token to the next.
TEST(BufferPool, AFreedBlockServesALongerArrayOfItsSizeClass) {
  BufferPool pool;
  BufferPoolScope scope(pool);
  constexpr int64_t kRow = 1024;  // floats: 4 KiB, a page
  const std::byte* freed = nullptr;
  {
    Array cache(ElementType::kFloat, {150, kRow});  // 600 KiB: the class of 640 KiB
    freed = cache.bytes().data();
  }
  {
    Array longer(ElementType::kFloat, {151, kRow});
    EXPECT_EQ(longer.bytes().data(), freed);
  }
  Array past_the_class(ElementType::kFloat, {161, kRow});  // 644 KiB: the class of 704 KiB
  EXPECT_NE(past_the_class.bytes().data(), freed);
}

TEST(BufferPool, SharingPoolsReuseEachOthersFreedBlocksAndCountTheirOwn) {
  BufferPool first = BufferPool::sharingFreedBlocks();
  BufferPool second = BufferPool::sharingFreedBlocks();
  const std::byte* freed = nullptr;
  {
    BufferPoolScope scope(first);
    Array array(ElementType::kFloat, {3, 65536});  // 768 KiB: a size no other test frees
    freed = array.bytes().data();
    EXPECT_EQ(first.liveBytes(), size_t{3} << 18);
  }
  EXPECT_EQ(first.liveBytes(), 0u);
  BufferPoolScope scope(second);
  second.setLimit(size_t{1} << 20);
  Array taken(ElementType::kFloat, {3, 65536});
  EXPECT_EQ(taken.bytes().data(), freed) << "the first pool's freed block serves the second";
  EXPECT_EQ(second.liveBytes(), size_t{3} << 18);
  EXPECT_EQ(first.liveBytes(), 0u);
  EXPECT_FALSE(Array::allocate(ElementType::kFloat, {3, 65536})) << "the second's own limit";
}

}  // namespace
}  // namespace onyx
