// Tests for onyx/core/file_writer.h.
#include "onyx/core/file_writer.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace onyx {
namespace {

class AtomicFileWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-writer-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    ::chmod(dir_.c_str(), 0700);
    std::filesystem::remove_all(dir_);
  }

  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  void writeFile(const std::string& name, const std::string& bytes) const {
    std::ofstream out(path(name), std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good());
  }
  std::string readFile(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  std::string dir_;
};

TEST_F(AtomicFileWriterTest, CommitCreatesTheFile) {
  auto writer = AtomicFileWriter::create(path("new.bin"));
  ASSERT_TRUE(writer.isOk()) << writer.status().toString();
  ASSERT_TRUE(writer->write("hello").isOk());
  EXPECT_EQ(writer->position(), 5u);
  ASSERT_TRUE(writer->commit().isOk());
  EXPECT_EQ(readFile("new.bin"), "hello");
  EXPECT_EQ(entries(), std::vector<std::string>{"new.bin"});
}

TEST_F(AtomicFileWriterTest, CommitReplacesOldContent) {
  writeFile("model.onnx", std::string(10000, 'o'));
  auto writer = AtomicFileWriter::create(path("model.onnx"));
  ASSERT_TRUE(writer.isOk()) << writer.status().toString();
  ASSERT_TRUE(writer->write("new").isOk());
  // Until commit the old file is what readers see.
  EXPECT_EQ(readFile("model.onnx"), std::string(10000, 'o'));
  ASSERT_TRUE(writer->commit().isOk());
  EXPECT_EQ(readFile("model.onnx"), "new");
  EXPECT_EQ(entries(), std::vector<std::string>{"model.onnx"});
}

// A file's bytes from an offset, after what the writer buffered (inside the kernel where it
// can); a source that ends early, or has no offsets (a pipe), fails, naming the destination.
TEST_F(AtomicFileWriterTest, CopyFromAppendsAnotherFilesBytes) {
  std::string source(5000000, '\0');
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<char>(i * 31 + 7);
  writeFile("source.bin", source);
  const int fd = ::open(path("source.bin").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto writer = AtomicFileWriter::create(path("copy.bin"));
  ASSERT_TRUE(writer.isOk()) << writer.status().toString();
  ASSERT_TRUE(writer->write("abc").isOk());
  ASSERT_TRUE(writer->copyFrom(fd, 1000, 4000000).isOk());
  ASSERT_TRUE(writer->write("xyz").isOk());
  EXPECT_EQ(writer->position(), 4000006u);
  ASSERT_TRUE(writer->commit().isOk());
  EXPECT_EQ(readFile("copy.bin"), "abc" + source.substr(1000, 4000000) + "xyz");

  auto short_source = AtomicFileWriter::create(path("short.bin"));
  ASSERT_TRUE(short_source.isOk());
  const Status status = short_source->copyFrom(fd, source.size() - 10, 20);
  EXPECT_EQ(status.code(), ErrorCode::kIoError);
  EXPECT_NE(status.message().find("short.bin"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("ended early"), std::string::npos) << status.message();
  EXPECT_FALSE(short_source->commit().isOk()) << "a failed copy sticks";
  ::close(fd);

  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  ASSERT_EQ(::write(pipe_fds[1], "piped", 5), 5);
  ::close(pipe_fds[1]);
  auto from_pipe = AtomicFileWriter::create(path("piped.bin"));
  ASSERT_TRUE(from_pipe.isOk());
  // A pipe has no offsets to copy from: refused, named, and nothing is left behind.
  const Status piped = from_pipe->copyFrom(pipe_fds[0], 0, 5);
  ::close(pipe_fds[0]);
  EXPECT_EQ(piped.code(), ErrorCode::kIoError);
  EXPECT_NE(piped.message().find("piped.bin"), std::string::npos) << piped.message();
  EXPECT_FALSE(from_pipe->commit().isOk());
  EXPECT_EQ(entries(), (std::vector<std::string>{"copy.bin", "source.bin"}));
}

TEST_F(AtomicFileWriterTest, TemporaryLivesBesideTheDestination) {
  auto writer = AtomicFileWriter::create(path("w.bin"));
  ASSERT_TRUE(writer.isOk());
  const auto names = entries();
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(names[0].rfind(".w.bin.onyx-tmp-", 0), 0u) << names[0];
  struct stat st;
  ASSERT_EQ(::stat(path(names[0]).c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 0022, 0u) << "never group- or world-writable";
}

TEST_F(AtomicFileWriterTest, DestroyingWithoutCommitLeavesOldFileAndNoTemporary) {
  writeFile("model.onnx", "old contents");
  {
    auto writer = AtomicFileWriter::create(path("model.onnx"));
    ASSERT_TRUE(writer.isOk());
    ASSERT_TRUE(writer->write(std::string(AtomicFileWriter::kBufferSize * 2, 'n')).isOk());
  }
  EXPECT_EQ(readFile("model.onnx"), "old contents");
  EXPECT_EQ(entries(), std::vector<std::string>{"model.onnx"});
}

TEST_F(AtomicFileWriterTest, AbandonLeavesOldFileAndNoTemporary) {
  writeFile("model.onnx", "old contents");
  auto writer = AtomicFileWriter::create(path("model.onnx"));
  ASSERT_TRUE(writer.isOk());
  ASSERT_TRUE(writer->write("partial").isOk());
  writer->abandon();
  writer->abandon();  // idempotent
  EXPECT_EQ(readFile("model.onnx"), "old contents");
  EXPECT_EQ(entries(), std::vector<std::string>{"model.onnx"});
  EXPECT_EQ(writer->commit().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(writer->write("x").code(), ErrorCode::kInvalidArgument);
}

TEST_F(AtomicFileWriterTest, LargeWritesAndZerosProduceTheRightBytes) {
  constexpr size_t kBuf = AtomicFileWriter::kBufferSize;
  std::string big(kBuf + kBuf / 4 + 7, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 131 + 7);
  const std::string medium(kBuf - 3, 'm');

  std::string expected;
  auto writer = AtomicFileWriter::create(path("data.bin"));
  ASSERT_TRUE(writer.isOk());
  auto step = [&](bool zeros, const std::string& bytes, uint64_t zero_count) {
    if (zeros) {
      ASSERT_TRUE(writer->writeZeros(zero_count).isOk());
      expected.append(static_cast<size_t>(zero_count), '\0');
    } else {
      ASSERT_TRUE(writer->write(bytes.data(), bytes.size()).isOk());
      expected += bytes;
    }
    EXPECT_EQ(writer->position(), expected.size());
  };
  step(false, "header", 0);
  step(true, "", 4096 - 6);       // pad to 4 KiB, as the external-data writer will
  step(false, big, 0);            // larger than the buffer: goes straight to write(2)
  step(false, medium, 0);         // smaller than the buffer, but does not fit what is left
  step(true, "", 3 * kBuf + 11);  // zeros spanning several buffers
  step(false, "", 0);
  step(true, "", 0);
  step(false, "tail", 0);
  ASSERT_TRUE(writer->commit().isOk());
  const std::string actual = readFile("data.bin");
  ASSERT_EQ(actual.size(), expected.size());
  EXPECT_TRUE(actual == expected);
}

TEST_F(AtomicFileWriterTest, ManySmallWritesCrossTheBufferBoundary) {
  auto writer = AtomicFileWriter::create(path("small.bin"));
  ASSERT_TRUE(writer.isOk());
  std::string expected;
  const std::string chunk = "0123456789abcdefXYZ";  // 19 bytes: never divides 4 MiB
  while (expected.size() < AtomicFileWriter::kBufferSize + 1000) {
    ASSERT_TRUE(writer->write(chunk).isOk());
    expected += chunk;
  }
  EXPECT_EQ(writer->position(), expected.size());
  ASSERT_TRUE(writer->commit(SyncMode::kSkipFsync).isOk());
  EXPECT_TRUE(readFile("small.bin") == expected);
}

TEST_F(AtomicFileWriterTest, CommitTwiceIsAnError) {
  auto writer = AtomicFileWriter::create(path("once.bin"));
  ASSERT_TRUE(writer.isOk());
  ASSERT_TRUE(writer->commit().isOk());
  EXPECT_EQ(writer->commit().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(writer->write("late").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(readFile("once.bin"), "");
}

TEST_F(AtomicFileWriterTest, MovedWriterKeepsTheTemporary) {
  auto created = AtomicFileWriter::create(path("moved.bin"));
  ASSERT_TRUE(created.isOk());
  AtomicFileWriter first = std::move(created).value();
  ASSERT_TRUE(first.write("abc").isOk());
  AtomicFileWriter second = std::move(first);
  {
    // Destroying a moved-from writer must not remove the moved temporary.
    AtomicFileWriter gone = std::move(first);
  }
  ASSERT_TRUE(second.write("def").isOk());
  EXPECT_EQ(second.position(), 6u);
  ASSERT_TRUE(second.commit().isOk());
  EXPECT_EQ(readFile("moved.bin"), "abcdef");
}

TEST_F(AtomicFileWriterTest, FailedCommitRemovesTheTemporary) {
  auto writer = AtomicFileWriter::create(path("target"));
  ASSERT_TRUE(writer.isOk());
  ASSERT_TRUE(writer->write("data").isOk());
  // A folder appears at the destination before commit: rename(2) cannot replace it.
  ASSERT_EQ(::mkdir(path("target").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir(path("target/inside").c_str(), 0700), 0);
  const Status status = writer->commit();
  EXPECT_EQ(status.code(), ErrorCode::kIoError);
  EXPECT_NE(status.message().find("target"), std::string::npos) << status.message();
  EXPECT_EQ(entries(), std::vector<std::string>{"target"});
  EXPECT_TRUE(std::filesystem::is_directory(path("target/inside")));
}

TEST_F(AtomicFileWriterTest, DirectoryDestinationIsRefusedUpFront) {
  ASSERT_EQ(::mkdir(path("folder").c_str(), 0700), 0);
  auto writer = AtomicFileWriter::create(path("folder"));
  ASSERT_FALSE(writer.isOk());
  EXPECT_EQ(writer.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(entries(), std::vector<std::string>{"folder"});
}

TEST_F(AtomicFileWriterTest, SymbolicLinkDestinationIsReplacedNotFollowed) {
  writeFile("target.bin", "target stays");
  ASSERT_EQ(::symlink("target.bin", path("link.bin").c_str()), 0);
  auto writer = AtomicFileWriter::create(path("link.bin"));
  ASSERT_TRUE(writer.isOk());
  ASSERT_TRUE(writer->write("new").isOk());
  ASSERT_TRUE(writer->commit().isOk());
  EXPECT_EQ(readFile("target.bin"), "target stays");
  EXPECT_FALSE(std::filesystem::is_symlink(path("link.bin")));
  EXPECT_EQ(readFile("link.bin"), "new");
}

TEST_F(AtomicFileWriterTest, BadNamesAreRefused) {
  EXPECT_EQ(AtomicFileWriter::create("").status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(AtomicFileWriter::create(path("sub/")).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(AtomicFileWriter::create(path("missing/x.bin")).status().code(), ErrorCode::kNotFound);
  const int dir_fd = ::open(dir_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dir_fd, 0);
  for (std::string_view name : {"", ".", "..", "a/b"}) {
    EXPECT_EQ(AtomicFileWriter::createAt(dir_fd, name, "x").status().code(),
              ErrorCode::kInvalidArgument)
        << name;
  }
  auto at = AtomicFileWriter::createAt(dir_fd, "at.bin", path("at.bin"));
  ::close(dir_fd);  // the writer keeps its own descriptor
  ASSERT_TRUE(at.isOk()) << at.status().toString();
  ASSERT_TRUE(at->write("at").isOk());
  ASSERT_TRUE(at->commit().isOk());
  EXPECT_EQ(readFile("at.bin"), "at");
}

TEST_F(AtomicFileWriterTest, ReadOnlyDirectoryIsAnError) {
  writeFile("model.onnx", "old");
  ASSERT_EQ(::chmod(dir_.c_str(), 0555), 0);
  auto attempt = [&]() -> int {
    auto writer = AtomicFileWriter::create(path("model.onnx"));
    if (writer.isOk()) return 1;
    if (writer.status().code() != ErrorCode::kIoError) return 2;
    if (writer.status().message().find("model.onnx") == std::string::npos) return 3;
    return 0;
  };
  if (geteuid() != 0) {
    EXPECT_EQ(attempt(), 0);
  } else {
    // Root ignores permission bits; try as an unprivileged user in a child process.
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      if (setgid(65534) != 0 || setuid(65534) != 0) _exit(77);
      _exit(attempt());
    }
    int wstatus = 0;
    ASSERT_EQ(waitpid(child, &wstatus, 0), child);
    ASSERT_TRUE(WIFEXITED(wstatus));
    if (WEXITSTATUS(wstatus) == 77) GTEST_SKIP() << "root, and cannot drop privileges";
    EXPECT_EQ(WEXITSTATUS(wstatus), 0);
  }
  EXPECT_EQ(readFile("model.onnx"), "old");
  EXPECT_EQ(entries(), std::vector<std::string>{"model.onnx"});
}

TEST_F(AtomicFileWriterTest, FolderThatRefusesNewFilesIsAnError) {
  // /proc accepts no new files, for root too.
  auto writer = AtomicFileWriter::create("/proc/onyx-writer-test.bin");
  ASSERT_FALSE(writer.isOk());
  EXPECT_EQ(writer.status().code(), ErrorCode::kIoError);
  EXPECT_NE(writer.status().message().find("onyx-writer-test.bin"), std::string::npos);
}

}  // namespace
}  // namespace onyx
