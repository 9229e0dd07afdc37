// .npy files: what NumPy writes reads back element for element; damaged or unsupported files
// are refused with the reason.
#include "onyx/serde/npy.h"

#include <gtest/gtest.h>

#include <cstring>

namespace onyx {
namespace {

// A .npy file as NumPy 1.x writes it: magic, version 1.0, a padded header, the data.
std::string npyFile(const std::string& dict, std::string_view data) {
  std::string header = dict;
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string file = "\x93NUMPY";
  file += '\x01';
  file += '\0';
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  return file + header + std::string(data);
}

std::string bytesOf(const std::vector<float>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

TEST(Npy, ReadsAFloatArrayInCOrder) {
  std::string file = npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                             bytesOf({1, 2, 3, 4, 5, 6}));
  Result<Array> array = parseNpy(file);
  ASSERT_TRUE(array) << array.status().toString();
  EXPECT_EQ(array->type(), ElementType::kFloat);
  EXPECT_EQ(array->shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(array->data<float>()[4], 5.0f);
}

TEST(Npy, FortranOrderIsRewrittenRowMajor) {
  // Column-major [[1, 2, 3], [4, 5, 6]] is stored 1 4 2 5 3 6.
  std::string file = npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
                             bytesOf({1, 4, 2, 5, 3, 6}));
  Result<Array> array = parseNpy(file);
  ASSERT_TRUE(array) << array.status().toString();
  std::vector<float> values(array->data<float>(), array->data<float>() + 6);
  EXPECT_EQ(values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(Npy, BigEndianElementsAreSwapped) {
  std::string data("\x00\x00\x00\x00\x00\x00\x01\x02", 8);
  Result<Array> array =
      parseNpy(npyFile("{'descr': '>i8', 'fortran_order': False, 'shape': (1,), }", data));
  ASSERT_TRUE(array) << array.status().toString();
  EXPECT_EQ(array->data<int64_t>()[0], 0x0102);
}

TEST(Npy, AScalarHasAnEmptyShape) {
  Result<Array> array = parseNpy(
      npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", std::string(8, '\0')));
  ASSERT_TRUE(array) << array.status().toString();
  EXPECT_EQ(array->rank(), 0u);
  EXPECT_EQ(array->size(), 1u);
}

TEST(Npy, WritesWhatItReads) {
  Array array(ElementType::kInt32, {2, 2});
  for (int i = 0; i < 4; ++i) array.data<int32_t>()[i] = i * 10 - 5;
  Result<std::string> file = serializeNpy(array);
  ASSERT_TRUE(file) << file.status().toString();
  EXPECT_EQ((file->size() - file->find('\n') - 1), 16u);
  EXPECT_EQ((file->find('\n') + 1) % 64, 0u) << "the data starts 64-byte aligned";
  Result<Array> back = parseNpy(*file);
  ASSERT_TRUE(back) << back.status().toString();
  EXPECT_EQ(back->shape(), array.shape());
  EXPECT_EQ(std::memcmp(back->data<int32_t>(), array.data<int32_t>(), 16), 0);
}

TEST(Npy, TypesWithoutADtypeAreNotWritten) {
  Array array(ElementType::kBfloat16, {1});
  Result<std::string> file = serializeNpy(array);
  ASSERT_FALSE(file);
  EXPECT_NE(file.status().message().find("BFLOAT16"), std::string::npos);
}

TEST(Npy, DamagedFilesAreRefusedWithTheReason) {
  struct Case {
    std::string file;
    std::string_view reason;
  };
  std::string good_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  std::vector<Case> cases = {
      {"PK\x03\x04 not npy", "\\x93NUMPY"},
      {npyFile(good_dict, bytesOf({1})), "needs 8 bytes; 4 follow"},
      {npyFile(good_dict, bytesOf({1, 2, 3})), "needs 8 bytes; 12 follow"},
      {npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999), }", ""),
       "holds more than"},
      {npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", ""), "not a number"},
      {npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", "12345678"),
       "dtype '|O'"},
      {npyFile("{'descr': '<f4', 'shape': (1,), }", "1234"), "lacks"},
      {npyFile(good_dict, "").substr(0, 20), "longer than the file"},
  };
  for (const Case& c : cases) {
    Result<Array> array = parseNpy(c.file);
    ASSERT_FALSE(array) << c.reason;
    EXPECT_NE(array.status().message().find(c.reason), std::string::npos)
        << array.status().toString();
  }
}

}  // namespace
}  // namespace onyx
