#include "onyx/core/element_type.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace onyx {
namespace {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

TEST(ElementTypeTable, EveryCodeFromOneToTwentySixHasItsRow) {
  for (int32_t code = 1; code <= 26; ++code) {
    const ElementTypeInfo* info = elementTypeInfo(code);
    ASSERT_NE(info, nullptr) << code;
    EXPECT_EQ(static_cast<int32_t>(info->type), code);
    EXPECT_EQ(elementTypeInfo(info->type), info);
  }
  EXPECT_EQ(kElementTypeTable.size(), 26u);
}

TEST(ElementTypeTable, UnknownCodesHaveNoRow) {
  EXPECT_EQ(elementTypeInfo(0), nullptr);
  EXPECT_EQ(elementTypeInfo(ElementType::kUndefined), nullptr);
  EXPECT_EQ(elementTypeInfo(27), nullptr);
  EXPECT_EQ(elementTypeInfo(-1), nullptr);
  EXPECT_EQ(elementTypeInfo(std::numeric_limits<int32_t>::max()), nullptr);
  EXPECT_EQ(elementTypeInfo(std::numeric_limits<int32_t>::min()), nullptr);
}

TEST(ElementTypeTable, NamesAreDistinctAndRoundTrip) {
  std::set<std::string_view> seen;
  for (const ElementTypeInfo& row : kElementTypeTable) {
    EXPECT_TRUE(seen.insert(row.name).second) << row.name;
    EXPECT_TRUE(seen.insert(row.shortName).second) << row.shortName;
    EXPECT_EQ(elementTypeFromName(row.name), row.type) << row.name;
    EXPECT_EQ(elementTypeFromName(row.shortName), row.type) << row.shortName;
    EXPECT_EQ(elementTypeName(row.type), row.name);
    EXPECT_EQ(elementTypeName(static_cast<int32_t>(row.type)), row.name);
  }
}

TEST(ElementTypeTable, SpellingsMatchTheSpec) {
  // onnx.proto's DataType names and the names in onnx/defs/parser.h (the text syntax).
  const std::vector<std::pair<std::string_view, std::string_view>> expected = {
      {"FLOAT", "float"},
      {"UINT8", "uint8"},
      {"INT8", "int8"},
      {"UINT16", "uint16"},
      {"INT16", "int16"},
      {"INT32", "int32"},
      {"INT64", "int64"},
      {"STRING", "string"},
      {"BOOL", "bool"},
      {"FLOAT16", "float16"},
      {"DOUBLE", "double"},
      {"UINT32", "uint32"},
      {"UINT64", "uint64"},
      {"COMPLEX64", "complex64"},
      {"COMPLEX128", "complex128"},
      {"BFLOAT16", "bfloat16"},
      {"FLOAT8E4M3FN", "float8e4m3fn"},
      {"FLOAT8E4M3FNUZ", "float8e4m3fnuz"},
      {"FLOAT8E5M2", "float8e5m2"},
      {"FLOAT8E5M2FNUZ", "float8e5m2fnuz"},
      {"UINT4", "uint4"},
      {"INT4", "int4"},
      {"FLOAT4E2M1", "float4e2m1"},
      {"FLOAT8E8M0", "float8e8m0"},
      {"UINT2", "uint2"},
      {"INT2", "int2"},
  };
  ASSERT_EQ(expected.size(), kElementTypeTable.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(kElementTypeTable[i].name, expected[i].first);
    EXPECT_EQ(kElementTypeTable[i].shortName, expected[i].second);
  }
}

TEST(ElementTypeName, UnknownAndUndefined) {
  EXPECT_EQ(elementTypeName(0), "UNDEFINED");
  EXPECT_EQ(elementTypeName(ElementType::kUndefined), "UNDEFINED");
  EXPECT_EQ(elementTypeName(27), "UNKNOWN");
  EXPECT_EQ(elementTypeName(-5), "UNKNOWN");
  EXPECT_EQ(elementTypeName(99), "UNKNOWN");
}

TEST(ElementTypeFromName, RejectsOtherSpellings) {
  EXPECT_EQ(elementTypeFromName(""), std::nullopt);
  EXPECT_EQ(elementTypeFromName("UNDEFINED"), std::nullopt);
  EXPECT_EQ(elementTypeFromName("undefined"), std::nullopt);
  EXPECT_EQ(elementTypeFromName("Float"), std::nullopt);
  EXPECT_EQ(elementTypeFromName("float32"), std::nullopt);
  EXPECT_EQ(elementTypeFromName("FLOAT "), std::nullopt);
  EXPECT_EQ(elementTypeFromName("float8e4m3"), std::nullopt);
  EXPECT_EQ(elementTypeFromName(std::string_view("float\0", 6)), std::nullopt);
}

TEST(ElementTypeTable, BitWidths) {
  const std::vector<std::pair<ElementType, int>> expected = {
      {ElementType::kFloat, 32},       {ElementType::kUint8, 8},
      {ElementType::kInt8, 8},         {ElementType::kUint16, 16},
      {ElementType::kInt16, 16},       {ElementType::kInt32, 32},
      {ElementType::kInt64, 64},       {ElementType::kString, 0},
      {ElementType::kBool, 8},         {ElementType::kFloat16, 16},
      {ElementType::kDouble, 64},      {ElementType::kUint32, 32},
      {ElementType::kUint64, 64},      {ElementType::kComplex64, 64},
      {ElementType::kComplex128, 128}, {ElementType::kBfloat16, 16},
      {ElementType::kFloat8E4M3FN, 8}, {ElementType::kFloat8E4M3FNUZ, 8},
      {ElementType::kFloat8E5M2, 8},   {ElementType::kFloat8E5M2FNUZ, 8},
      {ElementType::kUint4, 4},        {ElementType::kInt4, 4},
      {ElementType::kFloat4E2M1, 4},   {ElementType::kFloat8E8M0, 8},
      {ElementType::kUint2, 2},        {ElementType::kInt2, 2},
  };
  for (const auto& [type, bits] : expected) {
    EXPECT_EQ(elementTypeInfo(type)->bitWidth, bits) << elementTypeName(type);
  }
}

TEST(ElementTypeTable, StorageFieldsFollowOnnxProto) {
  const auto storage = [](ElementType type) { return elementTypeInfo(type)->storage; };
  EXPECT_EQ(storage(ElementType::kFloat), StorageField::kFloatData);
  EXPECT_EQ(storage(ElementType::kComplex64), StorageField::kFloatData);
  EXPECT_EQ(storage(ElementType::kDouble), StorageField::kDoubleData);
  EXPECT_EQ(storage(ElementType::kComplex128), StorageField::kDoubleData);
  EXPECT_EQ(storage(ElementType::kInt64), StorageField::kInt64Data);
  EXPECT_EQ(storage(ElementType::kUint32), StorageField::kUint64Data);
  EXPECT_EQ(storage(ElementType::kUint64), StorageField::kUint64Data);
  EXPECT_EQ(storage(ElementType::kString), StorageField::kStringData);
  for (ElementType type :
       {ElementType::kInt32, ElementType::kInt16, ElementType::kInt8, ElementType::kInt4,
        ElementType::kInt2, ElementType::kUint16, ElementType::kUint8, ElementType::kUint4,
        ElementType::kUint2, ElementType::kBool, ElementType::kFloat16, ElementType::kBfloat16,
        ElementType::kFloat8E4M3FN, ElementType::kFloat8E4M3FNUZ, ElementType::kFloat8E5M2,
        ElementType::kFloat8E5M2FNUZ, ElementType::kFloat8E8M0, ElementType::kFloat4E2M1}) {
    EXPECT_EQ(storage(type), StorageField::kInt32Data) << elementTypeName(type);
  }
  // The enumerators are the proto's field numbers.
  EXPECT_EQ(static_cast<int>(StorageField::kFloatData), 4);
  EXPECT_EQ(static_cast<int>(StorageField::kInt32Data), 5);
  EXPECT_EQ(static_cast<int>(StorageField::kStringData), 6);
  EXPECT_EQ(static_cast<int>(StorageField::kInt64Data), 7);
  EXPECT_EQ(static_cast<int>(StorageField::kDoubleData), 10);
  EXPECT_EQ(static_cast<int>(StorageField::kUint64Data), 11);
}

TEST(ElementTypeTable, Flags) {
  const auto info = [](ElementType type) { return *elementTypeInfo(type); };
  EXPECT_TRUE(info(ElementType::kFloat).isFloatingPoint());
  EXPECT_TRUE(info(ElementType::kFloat).isSigned());
  EXPECT_FALSE(info(ElementType::kFloat).isInteger());
  EXPECT_TRUE(info(ElementType::kFloat8E4M3FNUZ).isSigned());
  EXPECT_TRUE(info(ElementType::kFloat8E8M0).isFloatingPoint());
  EXPECT_FALSE(info(ElementType::kFloat8E8M0).isSigned());
  EXPECT_TRUE(info(ElementType::kFloat4E2M1).isFloatingPoint());
  EXPECT_TRUE(info(ElementType::kFloat4E2M1).isSubByte());
  EXPECT_TRUE(info(ElementType::kInt4).isInteger());
  EXPECT_TRUE(info(ElementType::kInt4).isSigned());
  EXPECT_TRUE(info(ElementType::kInt4).isSubByte());
  EXPECT_FALSE(info(ElementType::kUint4).isSigned());
  EXPECT_TRUE(info(ElementType::kUint2).isSubByte());
  EXPECT_TRUE(info(ElementType::kInt2).isSigned());
  EXPECT_TRUE(info(ElementType::kUint64).isInteger());
  EXPECT_FALSE(info(ElementType::kUint64).isSigned());
  EXPECT_FALSE(info(ElementType::kBool).isInteger());
  EXPECT_FALSE(info(ElementType::kBool).isSigned());
  EXPECT_TRUE(info(ElementType::kComplex64).isComplex());
  EXPECT_FALSE(info(ElementType::kComplex64).isFloatingPoint());
  EXPECT_FALSE(info(ElementType::kString).isInteger());
  EXPECT_FALSE(info(ElementType::kString).isFloatingPoint());

  int subByte = 0;
  int floating = 0;
  int integer = 0;
  for (const ElementTypeInfo& row : kElementTypeTable) {
    subByte += row.isSubByte() ? 1 : 0;
    floating += row.isFloatingPoint() ? 1 : 0;
    integer += row.isInteger() ? 1 : 0;
  }
  EXPECT_EQ(subByte, 5);    // UINT4 INT4 FLOAT4E2M1 UINT2 INT2
  EXPECT_EQ(floating, 10);  // FLOAT FLOAT16 DOUBLE BFLOAT16, five FLOAT8, FLOAT4E2M1
  EXPECT_EQ(integer, 12);   // 8 whole-byte integers, UINT4 INT4 UINT2 INT2
}

TEST(PackedByteSize, WholeByteTypes) {
  EXPECT_EQ(*packedByteSize(ElementType::kFloat, 3), 12u);
  EXPECT_EQ(*packedByteSize(ElementType::kDouble, 3), 24u);
  EXPECT_EQ(*packedByteSize(ElementType::kComplex64, 3), 24u);
  EXPECT_EQ(*packedByteSize(ElementType::kComplex128, 3), 48u);
  EXPECT_EQ(*packedByteSize(ElementType::kBool, 5), 5u);
  EXPECT_EQ(*packedByteSize(ElementType::kFloat16, 5), 10u);
  EXPECT_EQ(*packedByteSize(ElementType::kFloat8E8M0, 5), 5u);
  EXPECT_EQ(*packedByteSize(ElementType::kInt64, 0), 0u);
  EXPECT_EQ(*packedByteSize(ElementType::kUint8, kU64Max), kU64Max);
}

TEST(PackedByteSize, FourBitTypesRoundUp) {
  for (ElementType type : {ElementType::kUint4, ElementType::kInt4, ElementType::kFloat4E2M1}) {
    EXPECT_EQ(*packedByteSize(type, 0), 0u);
    EXPECT_EQ(*packedByteSize(type, 1), 1u);
    EXPECT_EQ(*packedByteSize(type, 2), 1u);
    EXPECT_EQ(*packedByteSize(type, 3), 2u);
    EXPECT_EQ(*packedByteSize(type, 25), 13u);  // the 25 INT4 values of test_cast_FLOAT_to_INT4
    EXPECT_EQ(*packedByteSize(type, kU64Max), kU64Max / 2 + 1);
  }
}

TEST(PackedByteSize, TwoBitTypesRoundUp) {
  for (ElementType type : {ElementType::kUint2, ElementType::kInt2}) {
    EXPECT_EQ(*packedByteSize(type, 0), 0u);
    EXPECT_EQ(*packedByteSize(type, 1), 1u);
    EXPECT_EQ(*packedByteSize(type, 4), 1u);
    EXPECT_EQ(*packedByteSize(type, 5), 2u);
    EXPECT_EQ(*packedByteSize(type, 7), 2u);
    EXPECT_EQ(*packedByteSize(type, 8), 2u);
    EXPECT_EQ(*packedByteSize(type, 9), 3u);
    EXPECT_EQ(*packedByteSize(type, kU64Max), kU64Max / 4 + 1);
  }
}

TEST(PackedByteSize, OverflowIsAnError) {
  Result<uint64_t> size = packedByteSize(ElementType::kFloat, kU64Max / 4 + 1);
  ASSERT_FALSE(size.isOk());
  EXPECT_EQ(size.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_TRUE(packedByteSize(ElementType::kFloat, kU64Max / 4).isOk());
  EXPECT_EQ(packedByteSize(ElementType::kComplex128, kU64Max / 16 + 1).status().code(),
            ErrorCode::kLimitExceeded);
  EXPECT_EQ(*packedByteSize(ElementType::kComplex128, kU64Max / 16), kU64Max / 16 * 16);
  EXPECT_EQ(packedByteSize(ElementType::kFloat16, kU64Max).status().code(),
            ErrorCode::kLimitExceeded);
}

TEST(PackedByteSize, StringsAndUnknownTypesAreInvalid) {
  EXPECT_EQ(packedByteSize(ElementType::kString, 1).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(packedByteSize(ElementType::kString, 0).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(packedByteSize(ElementType::kUndefined, 1).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(packedByteSize(static_cast<ElementType>(99), 1).status().code(),
            ErrorCode::kInvalidArgument);
}

TEST(ElementCount, Products) {
  EXPECT_EQ(*elementCount({}), 1u);
  const std::vector<int64_t> matrix = {3, 4};
  EXPECT_EQ(*elementCount(matrix), 12u);
  const std::vector<int64_t> withOne = {1, 1, 7};
  EXPECT_EQ(*elementCount(withOne), 7u);
  const std::vector<int64_t> empty = {5, 0, 3};
  EXPECT_EQ(*elementCount(empty), 0u);
  const std::vector<int64_t> largest = {kI64Max};
  EXPECT_EQ(*elementCount(largest), static_cast<uint64_t>(kI64Max));
  const std::vector<int64_t> split = {int64_t{1} << 31, int64_t{1} << 31};
  EXPECT_EQ(*elementCount(split), uint64_t{1} << 62);
  // 3 * 715827883 = 2^31 + 1, times 2^31 - 1 is 2^62 - 1: doubled it fits, tripled it does not.
  const std::vector<int64_t> nearLimit = {3, 715827883, 2147483647, 2};
  EXPECT_EQ(*elementCount(nearLimit), static_cast<uint64_t>(kI64Max) - 1);
  const std::vector<int64_t> pastLimit = {3, 715827883, 2147483647, 3};
  EXPECT_EQ(elementCount(pastLimit).status().code(), ErrorCode::kLimitExceeded);
}

TEST(ElementCount, OverflowIsAnError) {
  // 2^63 elements passes INT64_MAX even though it fits in uint64_t.
  const std::vector<int64_t> twoTo63 = {int64_t{1} << 32, int64_t{1} << 31};
  Result<uint64_t> count = elementCount(twoTo63);
  ASSERT_FALSE(count.isOk());
  EXPECT_EQ(count.status().code(), ErrorCode::kLimitExceeded);
  const std::vector<int64_t> huge = {kI64Max, kI64Max, kI64Max};
  EXPECT_EQ(elementCount(huge).status().code(), ErrorCode::kLimitExceeded);
  const std::vector<int64_t> justOver = {kI64Max, 2};
  EXPECT_EQ(elementCount(justOver).status().code(), ErrorCode::kLimitExceeded);
  // A would-be product that wraps to a small number must not slip through: 2^32 * 2^32 is 0 mod
  // 2^64.
  const std::vector<int64_t> wraps = {int64_t{1} << 32, int64_t{1} << 32};
  EXPECT_EQ(elementCount(wraps).status().code(), ErrorCode::kLimitExceeded);
}

TEST(ElementCount, ZeroDimWinsOverHugeDims) {
  const std::vector<int64_t> dims = {kI64Max, kI64Max, 0};
  EXPECT_EQ(*elementCount(dims), 0u);
}

TEST(ElementCount, NegativeDimIsMalformed) {
  const std::vector<int64_t> dims = {2, -1, 3};
  Result<uint64_t> count = elementCount(dims);
  ASSERT_FALSE(count.isOk());
  EXPECT_EQ(count.status().code(), ErrorCode::kMalformed);
  // Even when another dim makes the tensor look empty.
  const std::vector<int64_t> withZero = {0, -7};
  EXPECT_EQ(elementCount(withZero).status().code(), ErrorCode::kMalformed);
  const std::vector<int64_t> lowest = {std::numeric_limits<int64_t>::min()};
  EXPECT_EQ(elementCount(lowest).status().code(), ErrorCode::kMalformed);
}

TEST(SubByte, FourBitLayoutPutsTheFirstElementLow) {
  // test_cast_FLOAT_to_INT4: -9..15 cast to INT4 (wrapping) is stored as 87 a9 cb ed 0f 21 ...
  std::array<uint8_t, 13> bytes{};
  for (int i = 0; i < 25; ++i) {
    const int value = i - 9;
    packSubByte(bytes.data(), static_cast<uint64_t>(i), static_cast<uint8_t>(value & 0xF),
                ElementType::kInt4);
  }
  const std::array<uint8_t, 13> expected = {0x87, 0xa9, 0xcb, 0xed, 0x0f, 0x21, 0x43,
                                            0x65, 0x87, 0xa9, 0xcb, 0xed, 0x0f};
  EXPECT_EQ(bytes, expected);
  for (int i = 0; i < 25; ++i) {
    const uint8_t code = unpackSubByte(bytes.data(), static_cast<uint64_t>(i), ElementType::kInt4);
    const int wrapped = ((i - 9) + 16) % 16;
    EXPECT_EQ(code, wrapped) << i;
    EXPECT_EQ(signExtendSubByte(code, ElementType::kInt4), wrapped >= 8 ? wrapped - 16 : wrapped);
  }
}

TEST(SubByte, TwoBitLayoutPutsTheFirstElementLow) {
  // test_cast_FLOAT_to_UINT2: [-3, -2, -1, 0, 1, 2, 3] wrap to [1, 2, 3, 0, 1, 2, 3] -> 39 39.
  std::array<uint8_t, 2> bytes{};
  const std::array<uint8_t, 7> codes = {1, 2, 3, 0, 1, 2, 3};
  for (size_t i = 0; i < codes.size(); ++i)
    packSubByte(bytes.data(), i, codes[i], ElementType::kUint2);
  EXPECT_EQ(bytes[0], 0x39);
  EXPECT_EQ(bytes[1], 0x39);
  for (size_t i = 0; i < codes.size(); ++i) {
    EXPECT_EQ(unpackSubByte(bytes.data(), i, ElementType::kUint2), codes[i]);
    EXPECT_EQ(unpackSubByte(bytes.data(), i, ElementType::kInt2), codes[i]);
  }
  // test_cast_INT2_to_INT8 reads the same bytes as [1, -2, -1, 0, 1, -2, -1].
  const std::array<int8_t, 7> signedValues = {1, -2, -1, 0, 1, -2, -1};
  for (size_t i = 0; i < codes.size(); ++i) {
    EXPECT_EQ(
        signExtendSubByte(unpackSubByte(bytes.data(), i, ElementType::kInt2), ElementType::kInt2),
        signedValues[i]);
  }
}

TEST(SubByte, PackingLeavesNeighboursAlone) {
  for (ElementType type : {ElementType::kUint4, ElementType::kInt4, ElementType::kFloat4E2M1,
                           ElementType::kUint2, ElementType::kInt2}) {
    const unsigned bits = elementTypeInfo(type)->bitWidth;
    const unsigned perByte = 8 / bits;
    const unsigned codes = 1u << bits;
    std::array<uint8_t, 3> bytes{};
    for (unsigned pattern = 0; pattern < 3 * perByte * codes; ++pattern) {
      const uint64_t index = pattern % (3 * perByte);
      const auto code = static_cast<uint8_t>(pattern / (3 * perByte));
      bytes.fill(0xA5);
      const std::array<uint8_t, 3> before = bytes;
      packSubByte(bytes.data(), index, code, type);
      EXPECT_EQ(unpackSubByte(bytes.data(), index, type), code);
      for (uint64_t other = 0; other < 3 * perByte; ++other) {
        if (other == index) continue;
        EXPECT_EQ(unpackSubByte(bytes.data(), other, type),
                  unpackSubByte(before.data(), other, type));
      }
    }
  }
}

TEST(SubByte, PackMasksTheCode) {
  std::array<uint8_t, 1> bytes{};
  packSubByte(bytes.data(), 1, 0xFF, ElementType::kUint4);
  EXPECT_EQ(bytes[0], 0xF0);
  bytes[0] = 0;
  packSubByte(bytes.data(), 2, 0xFF, ElementType::kInt2);
  EXPECT_EQ(bytes[0], 0x30);
}

TEST(SubByte, SignExtension) {
  for (uint8_t code = 0; code < 16; ++code) {
    EXPECT_EQ(signExtendSubByte(code, ElementType::kInt4), code < 8 ? code : code - 16);
    EXPECT_EQ(signExtendSubByte(code, ElementType::kUint4), code);
  }
  EXPECT_EQ(signExtendSubByte(0x8, ElementType::kInt4), -8);
  EXPECT_EQ(signExtendSubByte(0x7, ElementType::kInt4), 7);
  EXPECT_EQ(signExtendSubByte(0x0, ElementType::kInt2), 0);
  EXPECT_EQ(signExtendSubByte(0x1, ElementType::kInt2), 1);
  EXPECT_EQ(signExtendSubByte(0x2, ElementType::kInt2), -2);
  EXPECT_EQ(signExtendSubByte(0x3, ElementType::kInt2), -1);
  EXPECT_EQ(signExtendSubByte(0x3, ElementType::kUint2), 3);
  // Bits above the element are ignored.
  EXPECT_EQ(signExtendSubByte(0xF3, ElementType::kInt2), -1);
  EXPECT_EQ(signExtendSubByte(0xF1, ElementType::kInt4), 1);
}

}  // namespace
}  // namespace onyx
