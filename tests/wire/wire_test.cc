// The wire reader and the two-pass writer against hand-computed encodings.
#include <gtest/gtest.h>

#include "wire/reader.h"
#include "wire/writer.h"

namespace onyx::wire {
namespace {

TEST(WireReader, VarintsOfEveryLength) {
  for (int bits = 0; bits <= 64; ++bits) {
    uint64_t value = bits == 64 ? ~uint64_t{0} : (bits == 0 ? 0 : (uint64_t{1} << bits) - 1);
    std::string encoded;
    uint64_t v = value;
    while (v >= 0x80) {
      encoded += static_cast<char>(v | 0x80);
      v >>= 7;
    }
    encoded += static_cast<char>(v);
    Reader r(encoded);
    uint64_t decoded = 0;
    ASSERT_TRUE(r.readVarint(decoded)) << bits;
    EXPECT_EQ(decoded, value);
    EXPECT_TRUE(r.atEnd());
    EXPECT_EQ(static_cast<size_t>(varintSize(value)), encoded.size());
  }
}

TEST(WireReader, ElevenByteVarintIsRefused) {
  std::string encoded(10, '\x80');
  encoded += '\x01';
  Reader r(encoded);
  uint64_t value;
  EXPECT_FALSE(r.readVarint(value));
  EXPECT_NE(r.error().find("longer than 10 bytes"), std::string::npos);
}

TEST(WireReader, CutVarintIsRefusedAtItsOffset) {
  Reader r(std::string_view("\x08\x96", 2));
  uint32_t field;
  WireType type;
  ASSERT_TRUE(r.readTag(field, type));
  uint64_t value;
  EXPECT_FALSE(r.readVarint(value));
  EXPECT_EQ(r.errorOffset(), 1u);
}

TEST(WireReader, LengthsAreCheckedAsSixtyFourBits) {
  // A length of 2^32 + 1 must not be narrowed to 1.
  std::string encoded = "\x80\x80\x80\x80\x10x";
  Reader r(encoded);
  std::string_view bytes;
  EXPECT_FALSE(r.readBytes(bytes));
  EXPECT_NE(r.error().find("4294967296"), std::string::npos) << r.error();
}

TEST(WireReader, TagsOutsideTheRangeAreRefused) {
  Reader zero(std::string_view("\x00", 1));
  uint32_t field;
  WireType type;
  EXPECT_FALSE(zero.readTag(field, type));
  Reader wire6(std::string_view("\x0e", 1));
  EXPECT_FALSE(wire6.readTag(field, type));
  Reader largest(std::string_view("\xf8\xff\xff\xff\x0f", 5));  // field 2^29 - 1
  EXPECT_TRUE(largest.readTag(field, type));
  EXPECT_EQ(field, kMaxFieldNumber);
  Reader past(std::string_view("\x80\x80\x80\x80\x10", 5));  // field 2^29
  EXPECT_FALSE(past.readTag(field, type));
}

TEST(WireReader, GroupsAreSkippedWithTheirEnd) {
  // field 5 start group, field 1 varint 1, field 5 end group, then field 2 varint 7.
  std::string encoded = "\x2b\x08\x01\x2c\x10\x07";
  Reader r(encoded);
  uint32_t field;
  WireType type;
  ASSERT_TRUE(r.readTag(field, type));
  ASSERT_TRUE(r.skipValue(field, type, 10));
  ASSERT_TRUE(r.readTag(field, type));
  EXPECT_EQ(field, 2u);
  Reader mismatched(std::string_view("\x2b\x34", 2));  // ends as group 6
  ASSERT_TRUE(mismatched.readTag(field, type));
  EXPECT_FALSE(mismatched.skipValue(field, type, 10));
  Reader too_deep(std::string_view("\x2b\x2b\x2b\x2c\x2c\x2c", 6));
  ASSERT_TRUE(too_deep.readTag(field, type));
  EXPECT_FALSE(too_deep.skipValue(field, type, 1));
}

TEST(WireReader, FailuresAreWordedWithTheirNumbers) {
  uint32_t field;
  WireType type;
  Reader wire7(std::string_view("\x0f", 1));  // field 1, wire type 7
  EXPECT_FALSE(wire7.readTag(field, type));
  EXPECT_EQ(wire7.error(), "invalid wire type 7 for field 1");
  EXPECT_EQ(wire7.errorCode(), ErrorCode::kMalformed);
  Reader mismatched(std::string_view("\x2b\x34", 2));
  ASSERT_TRUE(mismatched.readTag(field, type));
  EXPECT_FALSE(mismatched.skipValue(field, type, 10));
  EXPECT_EQ(mismatched.error(), "group 5 ends as group 6");
  Reader too_deep(std::string_view("\x2b\x2b\x2c\x2c", 4));
  ASSERT_TRUE(too_deep.readTag(field, type));
  EXPECT_FALSE(too_deep.skipValue(field, type, 1));
  EXPECT_EQ(too_deep.errorCode(), ErrorCode::kLimitExceeded);
  Reader fine(std::string_view("\x08\x01", 2));
  EXPECT_FALSE(fine.failed());
  EXPECT_EQ(fine.error(), "");
}

TEST(WireReader, ACopyReadsOnItsOwn) {
  // The decoder peeks ahead with copies; neither the position nor a failure is shared.
  Reader r(std::string_view("\x08\x96", 2));
  uint32_t field;
  WireType type;
  ASSERT_TRUE(r.readTag(field, type));
  Reader ahead = r;
  uint64_t value;
  EXPECT_FALSE(ahead.readVarint(value));
  EXPECT_TRUE(ahead.failed());
  EXPECT_FALSE(r.failed());
  EXPECT_EQ(r.offset(), 1u);
  ahead.moveTo(r.position());
  EXPECT_EQ(ahead.offset(), 1u);
}

TEST(WireReader, PackedVarintsAreCounted) {
  uint64_t count = 0;
  EXPECT_TRUE(countPackedVarints(std::string_view("\x01\x96\x01\x7f", 4), count));
  EXPECT_EQ(count, 3u);
  EXPECT_FALSE(countPackedVarints(std::string_view("\x01\x96", 2), count));
  EXPECT_FALSE(countPackedVarints(std::string(11, '\x80'), count));
}

TEST(WireWriter, NestedSizesComeFromTheFirstPass) {
  std::string bytes;
  StringOutput out(bytes);
  Status status = encodeTwoPass(out, [](auto& sink) {
    sink.message(1, [&] {
      sink.message(2, [&] { sink.bytesField(3, std::string(200, 'a')); });
      sink.tag(4, WireType::kVarint);
      sink.varint(150);
    });
  });
  ASSERT_TRUE(status) << status.toString();
  // 3: tag + 2-byte length + 200; 2: tag + 2-byte length + 203; 4: tag + 2 bytes.
  std::string inner3 = std::string("\x1a\xc8\x01", 3) + std::string(200, 'a');
  std::string inner2 = std::string("\x12\xcb\x01", 3) + inner3;
  std::string body1 = inner2 + std::string("\x20\x96\x01", 3);
  std::string expected = std::string("\x0a\xd1\x01", 3) + body1;
  EXPECT_EQ(bytes, expected);
}

TEST(WireWriter, LargePayloadsBypassTheBuffer) {
  std::string big(3 << 20, 'z');
  std::string bytes;
  StringOutput out(bytes);
  Status status = encodeTwoPass(out, [&](auto& sink) { sink.bytesField(1, big); });
  ASSERT_TRUE(status);
  EXPECT_EQ(bytes.size(), 1 + 4 + big.size());
  EXPECT_EQ(bytes.substr(5), big);
}

}  // namespace
}  // namespace onyx::wire
