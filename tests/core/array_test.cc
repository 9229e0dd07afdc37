#include "onyx/core/array.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "onyx/core/arena.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"

namespace onyx {
namespace {

Tensor rawTensor(const GraphEditor& edit, ElementType type, std::initializer_list<int64_t> dims,
                 std::string_view bytes) {
  Tensor tensor;
  tensor.data_type = static_cast<int32_t>(type);
  for (int64_t dim : dims) tensor.dims.values.push_back(edit.arena(), dim);
  tensor.raw_data = edit.arena().copy(bytes);
  return tensor;
}

TEST(Array, CopiesAreHandlesAndCloneOwns) {
  Array a(ElementType::kFloat, {2, 3});
  EXPECT_EQ(a.size(), 6u);
  EXPECT_EQ(a.bytes().size(), 24u);
  a.data<float>()[0] = 1.5f;
  Array shared = a;
  Array owned = a.clone();
  a.data<float>()[0] = 2.5f;
  EXPECT_EQ(shared.data<float>()[0], 2.5f);
  EXPECT_EQ(owned.data<float>()[0], 1.5f);
  EXPECT_EQ(a.reshaped({6}).shape(), std::vector<int64_t>{6});
}

TEST(Array, BorrowingViewsReadOnlyElementsAndKeepsTheirOwner) {
  struct alignas(Array::kAlignment) Elements {
    float values[4] = {1, 2, 3, 4};
  };
  auto owner = std::make_shared<const Elements>();
  std::weak_ptr<const Elements> watch = owner;
  const auto* data = reinterpret_cast<const std::byte*>(owner->values);
  Array borrowed = Array::borrowing(ElementType::kFloat, {2, 2}, data, std::move(owner));
  EXPECT_TRUE(borrowed.borrowed());
  EXPECT_EQ(borrowed.bytes().data(), data) << "a view, not a copy";
  EXPECT_EQ(borrowed.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(borrowed.data<float>()[3], 4.0f);
  // Even the only handle may not write: the elements may be a read-only mapping.
  EXPECT_FALSE(borrowed.soleHandle());

  Array reshaped = borrowed.reshaped({4});
  EXPECT_TRUE(reshaped.borrowed());
  EXPECT_FALSE(reshaped.soleHandle());
  Array copy = borrowed.clone();
  EXPECT_FALSE(copy.borrowed());
  EXPECT_TRUE(copy.soleHandle());
  EXPECT_NE(copy.bytes().data(), data);
  EXPECT_EQ(copy.data<float>()[3], 4.0f);

  borrowed = Array();
  EXPECT_FALSE(watch.expired()) << "the reshaped handle still keeps the elements";
  reshaped = Array();
  EXPECT_TRUE(watch.expired());
}

TEST(Array, AllocateRefusesNegativeAndHugeShapes) {
  EXPECT_FALSE(Array::allocate(ElementType::kFloat, {-1}).isOk());
  EXPECT_FALSE(Array::allocate(ElementType::kFloat, {int64_t{1} << 40, 1 << 10}).isOk());
  EXPECT_TRUE(Array::allocate(ElementType::kFloat, {0, 5}).isOk());
}

TEST(Array, FromTensorRawFloatAndPackedInt4) {
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  float values[] = {1, 2, 3};
  Tensor floats = rawTensor(edit, ElementType::kFloat, {3},
                            std::string_view(reinterpret_cast<const char*>(values), 12));
  Result<Array> read = arrayFromTensor(floats);
  ASSERT_TRUE(read) << read.status().toString();
  EXPECT_EQ(read->data<float>()[2], 3.0f);

  // INT4 [-1, 7, -8]: two per byte, first in the low bits; unpacked and sign-extended.
  Tensor nibbles = rawTensor(edit, ElementType::kInt4, {3}, std::string_view("\x7f\x08", 2));
  Result<Array> unpacked = arrayFromTensor(nibbles);
  ASSERT_TRUE(unpacked) << unpacked.status().toString();
  EXPECT_EQ(unpacked->data<int8_t>()[0], -1);
  EXPECT_EQ(unpacked->data<int8_t>()[1], 7);
  EXPECT_EQ(unpacked->data<int8_t>()[2], -8);
}

TEST(Array, FromTensorRefusesDataThatDoesNotFitTheDims) {
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  Tensor short_data = rawTensor(edit, ElementType::kFloat, {3}, std::string_view("abcd", 4));
  EXPECT_FALSE(arrayFromTensor(short_data).isOk());
  Tensor unknown_type = rawTensor(edit, ElementType::kFloat, {1}, std::string_view("abcd", 4));
  unknown_type.data_type = 99;
  EXPECT_FALSE(arrayFromTensor(unknown_type).isOk());
  // Four INT4 elements written one to a byte, as if not packed: the message says the count.
  Tensor unpacked =
      rawTensor(edit, ElementType::kInt4, {4}, std::string_view("\x01\x0e\x07\x08", 4));
  Result<Array> refused = arrayFromTensor(unpacked);
  ASSERT_FALSE(refused.isOk());
  EXPECT_NE(
      refused.status().message().find("4 packed bytes; the dims' 4 elements take 2 (2 to a byte"),
      std::string::npos)
      << refused.status().message();
}

TEST(Array, FromTensorStrings) {
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  Tensor strings;
  strings.data_type = static_cast<int32_t>(ElementType::kString);
  strings.dims.values.push_back(edit.arena(), 2);
  edit.rare(&strings).string_data.push_back(edit.arena(), edit.arena().copy("a"));
  edit.rare(&strings).string_data.push_back(edit.arena(), edit.arena().copy("bc"));
  Result<Array> read = arrayFromTensor(strings);
  ASSERT_TRUE(read) << read.status().toString();
  EXPECT_EQ(read->strings()[1], "bc");
}

}  // namespace
}  // namespace onyx
