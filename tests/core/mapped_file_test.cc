// Tests for onyx/core/mapped_file.h.
#include "onyx/core/mapped_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

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

TEST_F(MappedFileTest, SecondOpenSharesTheLiveMapping) {
  writeFile("model.onnx", "weights");
  auto first = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(first.isOk()) << first.status().toString();
  auto second = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(second.isOk()) << second.status().toString();
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ((*first)->bytes().data(), (*second)->bytes().data());

  // Through a descriptor and through another name of the same file, too.
  const int fd = ::open(path("model.onnx").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto from_fd = MappedFile::fromFd(fd, "another name");
  ::close(fd);
  ASSERT_TRUE(from_fd.isOk()) << from_fd.status().toString();
  EXPECT_EQ(from_fd->get(), first->get());
  ASSERT_EQ(::link(path("model.onnx").c_str(), path("linked.onnx").c_str()), 0);
  auto linked = MappedFile::open(path("linked.onnx"));
  ASSERT_TRUE(linked.isOk()) << linked.status().toString();
  EXPECT_EQ(linked->get(), first->get());
  EXPECT_EQ((*linked)->path(), path("model.onnx")) << "the name of the open that mapped it";
}

TEST_F(MappedFileTest, EmptyFileIsSharedToo) {
  writeFile("empty.bin", "");
  auto first = MappedFile::open(path("empty.bin"));
  auto second = MappedFile::open(path("empty.bin"));
  ASSERT_TRUE(first.isOk() && second.isOk());
  EXPECT_EQ(first->get(), second->get());
}

TEST_F(MappedFileTest, OpenAfterEveryReleaseMapsAfresh) {
  writeFile("model.onnx", "weights");
  std::weak_ptr<const MappedFile> released;
  {
    auto first = MappedFile::open(path("model.onnx"));
    ASSERT_TRUE(first.isOk());
    released = *first;
    auto second = MappedFile::open(path("model.onnx"));
    ASSERT_TRUE(second.isOk());
  }
  EXPECT_TRUE(released.expired()) << "the table of open files must not keep a mapping alive";
  auto again = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(again.isOk()) << again.status().toString();
  EXPECT_EQ((*again)->bytes(), "weights");
  auto shared = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(shared.isOk());
  EXPECT_EQ(shared->get(), again->get());
}

TEST_F(MappedFileTest, FileReplacedByRenameGetsItsOwnMapping) {
  writeFile("model.onnx", "old weights");
  auto old_file = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(old_file.isOk());
  // As onyx's writers save: beside, then renamed over (same size, so only the inode differs).
  writeFile("model.onnx.new", "new weights");
  ASSERT_EQ(::rename(path("model.onnx.new").c_str(), path("model.onnx").c_str()), 0);
  auto new_file = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(new_file.isOk()) << new_file.status().toString();
  EXPECT_NE(new_file->get(), old_file->get());
  EXPECT_EQ((*new_file)->bytes(), "new weights");
  EXPECT_EQ((*old_file)->bytes(), "old weights");
}

TEST_F(MappedFileTest, FileChangedInPlaceGetsItsOwnMapping) {
  writeFile("model.onnx", "weights");
  auto before = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(before.isOk());
  // Another modification time, the size the same: set explicitly, since two writes within
  // the file system's clock tick may leave the time as it was.
  const struct timespec times[2] = {{.tv_sec = 1000000000, .tv_nsec = 0},
                                    {.tv_sec = 1000000000, .tv_nsec = 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path("model.onnx").c_str(), times, 0), 0);
  auto touched = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(touched.isOk());
  EXPECT_NE(touched->get(), before->get());

  // Another size: appended to.
  {
    std::ofstream out(path("model.onnx"), std::ios::binary | std::ios::app);
    out << " and more";
  }
  ASSERT_EQ(::utimensat(AT_FDCWD, path("model.onnx").c_str(), times, 0), 0);
  auto grown = MappedFile::open(path("model.onnx"));
  ASSERT_TRUE(grown.isOk());
  EXPECT_NE(grown->get(), touched->get());
  EXPECT_EQ((*grown)->bytes(), "weights and more");
}

TEST_F(MappedFileTest, ThreadsOpeningOneFileAtOnceShareOneMapping) {
  writeFile("model.onnx", "weights");
  constexpr int kThreads = 8;
  std::vector<std::shared_ptr<const MappedFile>> opened(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      auto file = MappedFile::open(path("model.onnx"));
      if (file.isOk()) opened[static_cast<size_t>(i)] = *file;
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const auto& file : opened) {
    ASSERT_NE(file, nullptr);
    EXPECT_EQ(file.get(), opened.front().get());
  }
}

TEST_F(MappedFileTest, ReleasedPagesReadTheFileAgain) {
  // Three pages and a bit, the released range starting and ending mid-page: the pages it
  // touches go, and every byte reads the same afterwards.
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::string contents(3 * page + 100, '\0');
  for (size_t i = 0; i < contents.size(); ++i) contents[i] = static_cast<char>(i * 7 + i / 13);
  writeFile("weights.bin", contents);
  auto file = MappedFile::open(path("weights.bin"));
  ASSERT_TRUE(file.isOk()) << file.status().toString();
  EXPECT_EQ((*file)->bytes(), contents);  // every page faulted in
  MappedFile::releasePagesOf((*file)->bytes().substr(page / 2, 2 * page));
  EXPECT_EQ((*file)->bytes(), contents);
  MappedFile::releasePagesOf((*file)->bytes());
  EXPECT_EQ((*file)->bytes(), contents);
}

TEST(MappedFileBufferTest, ReleasingPagesLeavesOtherMemoryAlone) {
  // Bytes in no file mapping are the caller's: dropping their pages would lose them.
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const std::string contents(4 * page, 'w');
  auto buffer = MappedFile::fromBuffer(contents);
  MappedFile::releasePagesOf(buffer->bytes());
  EXPECT_EQ(buffer->bytes(), contents);
  std::vector<char> heap(contents.begin(), contents.end());
  MappedFile::releasePagesOf(std::string_view(heap.data(), heap.size()));
  EXPECT_EQ(std::string_view(heap.data(), heap.size()), contents);
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
