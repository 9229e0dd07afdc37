// The arena and its list: alignment, large requests, and the list operations.
#include "onyx/core/arena.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace onyx {
namespace {

TEST(Arena, AllocationsAreAlignedAndDistinct) {
  Arena arena;
  char* a = static_cast<char*>(arena.allocate(1, 1));
  auto* b = static_cast<uint64_t*>(arena.allocate(8, 8));
  auto* c = static_cast<long double*>(arena.allocate(sizeof(long double), alignof(long double)));
  EXPECT_NE(static_cast<void*>(a), static_cast<void*>(b));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 8, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(c) % alignof(long double), 0u);
  *b = 42;
  EXPECT_EQ(*b, 42u);
}

TEST(Arena, RequestsLargerThanABlockAreServed) {
  Arena arena;
  size_t big = size_t{200} << 20;
  auto* bytes = static_cast<char*>(arena.allocate(big, 64));
  bytes[0] = 1;
  bytes[big - 1] = 2;
  EXPECT_GE(arena.reservedBytes(), big);
  auto* after = static_cast<int*>(arena.allocate(sizeof(int), alignof(int)));
  *after = 7;
  EXPECT_EQ(bytes[big - 1], 2);
}

TEST(Arena, CopiesOutliveTheirSource) {
  Arena arena;
  std::string_view copy;
  {
    std::string source = "transient text";
    copy = arena.copy(source);
  }
  EXPECT_EQ(copy, "transient text");
  EXPECT_NE(arena.copy("").data(), nullptr);  // empty, but present
}

TEST(ArenaList, GrowsInsertsErasesAndAssigns) {
  Arena arena;
  ArenaList<int> list;
  for (int i = 0; i < 100; ++i) list.push_back(arena, i);
  ASSERT_EQ(list.size(), 100u);
  EXPECT_EQ(list[99], 99);
  list.erase(0);
  EXPECT_EQ(list[0], 1);
  list.insert(arena, 0, -1);
  EXPECT_EQ(list[0], -1);
  EXPECT_EQ(list[1], 1);
  list.truncate(10);
  EXPECT_EQ(list.size(), 10u);
  int source[] = {4, 5, 6};
  list.assign(arena, source, 3);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list.back(), 6);
  list.resize(arena, 5);
  EXPECT_EQ(list[4], 0);
}

TEST(ArenaList, ACopyHasStorageOfItsOwn) {
  Arena arena;
  ArenaList<int> original;
  for (int i = 0; i < 4; ++i) original.push_back(arena, i);
  ArenaList<int> copy = original.copy(arena);
  ASSERT_EQ(copy.size(), 4u);
  EXPECT_NE(copy.data(), original.data());
  copy[0] = 9;
  EXPECT_EQ(original[0], 0);
  EXPECT_EQ(ArenaList<int>().copy(arena).size(), 0u);
}

TEST(ArenaList, IsTwoWordsAndRefusesMoreThanItsSizeHolds) {
  // Hundreds of thousands of lists in a large graph's nodes and attributes: their size is
  // part of every load's cost.
  EXPECT_EQ(sizeof(ArenaList<int>), 16u);
  EXPECT_EQ(ArenaList<int>::kMaxSize, size_t{UINT32_MAX});
  // A size that would wrap the 32-bit count ends the process (as running out of memory
  // does) before anything is allocated or written.
  EXPECT_DEATH(
      {
        Arena arena;
        ArenaList<int> list;
        list.reserve(arena, ArenaList<int>::kMaxSize + 1);
      },
      "");
}

}  // namespace
}  // namespace onyx
