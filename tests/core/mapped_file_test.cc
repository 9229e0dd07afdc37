// Tests for onyx/core/mapped_file.h.
#include "onyx/core/mapped_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace onyx {
namespace {

class MappedFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-mapped-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  void writeFile(const std::string& name, const std::string& bytes) const {
    std::ofstream out(path(name), std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good());
  }

  std::string dir_;
};

TEST_F(MappedFileTest, MapsRegularFileContents) {
  const std::string contents("onnx\0weights\xff\x01", 15);
  writeFile("model.onnx", contents);
  auto file = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(file.isOk()) << file.status().toString();
  EXPECT_EQ((*file)->bytes(), contents);
  EXPECT_EQ((*file)->size(), contents.size());
  EXPECT_EQ((*file)->path(), path("model.onnx"));
}

TEST_F(MappedFileTest, EmptyFileGivesEmptyView) {
  writeFile("empty.bin", "");
  auto file = MappedFile::open(path("empty.bin"));
  ASSERT_TRUE(file.isOk()) << file.status().toString();
  EXPECT_EQ((*file)->size(), 0u);
  EXPECT_TRUE((*file)->bytes().empty());
}

TEST_F(MappedFileTest, MissingFileIsNotFound) {
  auto file = MappedFile::open(path("absent.onnx"));
  ASSERT_FALSE(file.isOk());
  EXPECT_EQ(file.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(file.status().message().find("absent.onnx"), std::string::npos);

  auto in_missing_folder = MappedFile::open(path("no-such-folder/model.onnx"));
  ASSERT_FALSE(in_missing_folder.isOk());
  EXPECT_EQ(in_missing_folder.status().code(), ErrorCode::kNotFound);
}

TEST_F(MappedFileTest, DirectoryIsRefused) {
  auto file = MappedFile::open(dir_);
  ASSERT_FALSE(file.isOk());
  EXPECT_EQ(file.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(file.status().message().find("directory"), std::string::npos);
}

TEST_F(MappedFileTest, FifoIsRefusedWithoutBlocking) {
  // Opening a FIFO for reading blocks until a writer comes, unless done non-blocking.
  ASSERT_EQ(mkfifo(path("pipe").c_str(), 0600), 0);
  auto file = MappedFile::open(path("pipe"));
  ASSERT_FALSE(file.isOk());
  EXPECT_EQ(file.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(file.status().message().find("FIFO"), std::string::npos);
}

TEST_F(MappedFileTest, FromFdLeavesTheDescriptorToTheCaller) {
  writeFile("data.bin", "0123456789");
  const int fd = ::open(path("data.bin").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto file = MappedFile::fromFd(fd, "named in messages");
  ASSERT_TRUE(file.isOk()) << file.status().toString();
  EXPECT_NE(fcntl(fd, F_GETFD), -1) << "fromFd must not close the caller's descriptor";
  ASSERT_EQ(::close(fd), 0);
  EXPECT_EQ((*file)->bytes(), "0123456789");
  EXPECT_EQ((*file)->path(), "named in messages");
}

TEST_F(MappedFileTest, MappingOutlivesTheFileName) {
  writeFile("gone.bin", "still here");
  auto file = MappedFile::open(path("gone.bin"));
  ASSERT_TRUE(file.isOk());
  ASSERT_EQ(::unlink(path("gone.bin").c_str()), 0);
  EXPECT_EQ((*file)->bytes(), "still here");
}

TEST_F(MappedFileTest, LargeSparseFileMapsWithoutReadingIt) {
  // 8 GiB of holes: mapping must not read or copy it, so this is instant and uses no RAM.
  constexpr uint64_t kSize = uint64_t{8} << 30;
  const int fd = ::open(path("huge.bin").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(kSize)), 0);
  ::close(fd);
  auto file = MappedFile::open(path("huge.bin"));
  ASSERT_TRUE(file.isOk()) << file.status().toString();
  EXPECT_EQ((*file)->size(), kSize);
  EXPECT_EQ((*file)->bytes().back(), '\0');
}

TEST(MappedFileBufferTest, FromBufferOwnsACopy) {
  std::string bytes(1000, 'x');
  auto file = MappedFile::fromBuffer(bytes);
  bytes.assign(1000, 'y');
  EXPECT_EQ(file->bytes(), std::string(1000, 'x'));
  EXPECT_EQ(file->size(), 1000u);
  EXPECT_TRUE(file->path().empty());

  // Short strings live inside the string object; the view must still be right.
  auto small = MappedFile::fromBuffer("abc");
  EXPECT_EQ(small->bytes(), "abc");
  auto empty = MappedFile::fromBuffer("");
  EXPECT_TRUE(empty->bytes().empty());
}

}  // namespace
}  // namespace onyx
