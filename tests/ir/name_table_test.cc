// The name table's hash reads exactly a name's bytes, however long, and the table finds
// what it holds.
#include "onyx/ir/name_table.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ir/graph_builder.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/value.h"

namespace onyx {
namespace {

// The hash as first defined: the name zero-padded to whole words, a word at a time.
uint64_t referenceHash(std::string_view name) {
  auto mix = [](uint64_t h) {
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
  };
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (name.size() * 0xff51afd7ed558ccdull);
  for (size_t at = 0; at < name.size(); at += 8) {
    uint64_t word = 0;
    std::memcpy(&word, name.data() + at, std::min<size_t>(8, name.size() - at));
    h = mix(h ^ word);
  }
  return mix(h);
}

TEST(NameTable, TheHashIsTheZeroPaddedWordHashAtEveryLength) {
  // The name sits inside a larger buffer whose other bytes must not count.
  std::string buffer(100, '\xaa');
  for (size_t length = 0; length <= 40; ++length) {
    for (size_t i = 0; i < length; ++i) buffer[10 + i] = static_cast<char>('a' + (i * 7) % 26);
    std::string_view name(buffer.data() + 10, length);
    EXPECT_EQ(NameTable::hashName(name), referenceHash(name)) << length;
    // Every byte counts, the last one too.
    if (length > 0) {
      std::string changed(name);
      changed.back() = '#';
      EXPECT_NE(NameTable::hashName(changed), NameTable::hashName(name)) << length;
    }
  }
}

TEST(NameTable, FindsEveryNameItHolds) {
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  NameTable table;
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back("/layer." + std::to_string(i) + "/out");
  names.push_back("");
  names.push_back("x");
  std::vector<Value> values(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    ir_internal::GraphBuilder::name(&values[i]) = names[i];
    Value* added = ir_internal::NameTableWriter::findOrAdd(table, edit.arena(), names[i],
                                                           [&] { return &values[i]; });
    EXPECT_EQ(added, &values[i]);
  }
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(table.find(names[i]), &values[i]);
  EXPECT_EQ(table.find("/layer.5000/out"), nullptr);
  EXPECT_EQ(table.size(), names.size());
}

}  // namespace
}  // namespace onyx
