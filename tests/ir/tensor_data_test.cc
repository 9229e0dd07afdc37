// rawBytes(): a tensor's elements as raw_data would hold them, from every storage field.
#include "onyx/ir/tensor_data.h"

#include <gtest/gtest.h>

#include <cstring>

#include "onyx/core/arena.h"
#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"

namespace onyx {
namespace {

std::string varints(std::initializer_list<uint64_t> values) {
  std::string out;
  for (uint64_t v : values) {
    while (v >= 0x80) {
      out += static_cast<char>(v | 0x80);
      v >>= 7;
    }
    out += static_cast<char>(v);
  }
  return out;
}

PackedData packed(const std::string& payload, uint64_t count) {
  PackedData data;
  data.payload = payload;
  data.count = count;
  data.present = true;
  return data;
}

template <class T>
std::string littleEndian(std::initializer_list<T> values) {
  std::string out;
  for (T v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);
  return out;
}

TEST(TensorData, RawAndExternalDataAreViews) {
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  Tensor tensor;
  tensor.data_type = static_cast<int32_t>(ElementType::kFloat);
  std::string raw = littleEndian<float>({1.5f, -2.0f});
  tensor.raw_data = std::string_view(raw);
  auto bytes = rawBytes(tensor);
  ASSERT_TRUE(bytes);
  EXPECT_TRUE(bytes->isView());
  EXPECT_EQ(bytes->bytes().data(), raw.data());

  Tensor external;
  external.data_location = Tensor::kExternal;
  EXPECT_FALSE(rawBytes(external));  // not resolved yet
  edit.rare(&external).external_bytes = std::string_view(raw);
  ASSERT_TRUE(rawBytes(external));
  EXPECT_EQ(rawBytes(external)->bytes(), raw);
}

TEST(TensorData, TypedFieldsBecomeLittleEndianWords) {
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  struct Case {
    ElementType type;
    PackedData TensorRareFields::*field;
    std::string payload;
    uint64_t count;
    std::string expected;
  };
  std::string floats = littleEndian<float>({0.25f, 3.0f});
  std::string doubles = littleEndian<double>({0.5, -1.0});
  const Case cases[] = {
      {ElementType::kFloat, &TensorRareFields::float_data, floats, 2, floats},
      {ElementType::kDouble, &TensorRareFields::double_data, doubles, 2, doubles},
      {ElementType::kInt64, &TensorRareFields::int64_data, varints({5, static_cast<uint64_t>(-3)}),
       2, littleEndian<int64_t>({5, -3})},
      {ElementType::kInt32, &TensorRareFields::int32_data, varints({7, static_cast<uint64_t>(-1)}),
       2, littleEndian<int32_t>({7, -1})},
      {ElementType::kInt8, &TensorRareFields::int32_data,
       varints({static_cast<uint64_t>(-128), 127}), 2, littleEndian<int8_t>({-128, 127})},
      {ElementType::kUint16, &TensorRareFields::int32_data, varints({65535, 1}), 2,
       littleEndian<uint16_t>({65535, 1})},
      {ElementType::kFloat16, &TensorRareFields::int32_data, varints({0x3c00, 0xc000}), 2,
       littleEndian<uint16_t>({0x3c00, 0xc000})},
      {ElementType::kBool, &TensorRareFields::int32_data, varints({1, 0, 1}), 3,
       littleEndian<uint8_t>({1, 0, 1})},
      {ElementType::kUint32, &TensorRareFields::uint64_data, varints({4000000000u, 2}), 2,
       littleEndian<uint32_t>({4000000000u, 2})},
      {ElementType::kUint64, &TensorRareFields::uint64_data, varints({~uint64_t{0}}), 1,
       littleEndian<uint64_t>({~uint64_t{0}})},
      // Sub-byte types: one packed byte per int32.
      {ElementType::kInt4, &TensorRareFields::int32_data, varints({0x21, 0x0f}), 2,
       littleEndian<uint8_t>({0x21, 0x0f})},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(elementTypeName(c.type)));
    Tensor tensor;
    tensor.data_type = static_cast<int32_t>(c.type);
    edit.rare(&tensor).*(c.field) = packed(c.payload, c.count);
    EXPECT_EQ(tensorStorage(tensor), TensorStorage::kTyped);
    auto bytes = rawBytes(tensor);
    ASSERT_TRUE(bytes) << bytes.status().toString();
    EXPECT_EQ(bytes->bytes(), c.expected);
  }
}

TEST(TensorData, MisplacedOrUnknownDataIsAnError) {
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  Tensor wrong_field;
  wrong_field.data_type = static_cast<int32_t>(ElementType::kFloat);
  edit.rare(&wrong_field).int64_data = packed(varints({1}), 1);
  EXPECT_EQ(rawBytes(wrong_field).status().code(), ErrorCode::kMalformed);

  Tensor unknown_type;
  unknown_type.data_type = 99;
  edit.rare(&unknown_type).int32_data = packed(varints({1}), 1);
  EXPECT_EQ(rawBytes(unknown_type).status().code(), ErrorCode::kMalformed);

  Tensor strings;
  strings.data_type = static_cast<int32_t>(ElementType::kString);
  edit.rare(&strings).string_data.push_back(edit.arena(), "a");
  EXPECT_EQ(tensorStorage(strings), TensorStorage::kStrings);
  EXPECT_EQ(rawBytes(strings).status().code(), ErrorCode::kInvalidArgument);

  Tensor empty;
  EXPECT_EQ(tensorStorage(empty), TensorStorage::kNone);
  EXPECT_TRUE(rawBytes(empty)->bytes().empty());
}

}  // namespace
}  // namespace onyx
