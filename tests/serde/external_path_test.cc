// Tests for onyx/serde/external_path.h: the external-data location rules, one regression
// test per published onnx external-data vulnerability, and the file-system checks, run
// both through openat2 and through the component-by-component fallback.
#include "onyx/serde/external_path.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace onyx {
namespace {

using namespace std::string_literals;

// ---------------------------------------------------------------------------------------
// Syntax: validateExternalLocation / normalizeExternalLocation (no file system).

void expectUnsafe(std::string_view location, std::string_view reason_fragment = {}) {
  const Status status = validateExternalLocation(location);
  EXPECT_EQ(status.code(), ErrorCode::kUnsafePath) << "accepted: " << location;
  EXPECT_NE(status.message().find(reason_fragment), std::string::npos) << status.message();
}

TEST(ExternalLocationTest, AcceptsRelativePathsInsideTheFolder) {
  for (std::string_view location : {"w.bin", "sub/w.bin", "./w.bin", "a//b", "./a/./b",
                                    "deep/er/w.onnx.data", ".hidden", "..data", "a..b", "ab:c"}) {
    EXPECT_TRUE(validateExternalLocation(location).isOk()) << location;
  }
}

TEST(ExternalLocationTest, NormalFormDropsDotsAndRepeatedSlashes) {
  EXPECT_EQ(*normalizeExternalLocation("./a//b/./c"), "a/b/c");
  EXPECT_EQ(*normalizeExternalLocation("w.bin"), "w.bin");
  EXPECT_EQ(*normalizeExternalLocation("././w.bin"), "w.bin");
}

TEST(ExternalLocationTest, RefusesEmptyAndTheFolderItself) {
  expectUnsafe("", "is empty");
  expectUnsafe(".", "folder itself");
  expectUnsafe("./.", "folder itself");
  expectUnsafe("sub/", "names a folder");
  expectUnsafe("./", "names a folder");
}

TEST(ExternalLocationTest, RefusesAbsolutePaths) {
  expectUnsafe("/etc/passwd", "absolute path");
  expectUnsafe("//etc/passwd", "absolute path");
  expectUnsafe("/", "absolute path");
}

TEST(ExternalLocationTest, RefusesDotDotAnywhere) {
  expectUnsafe("..", "leaves the model's folder");
  expectUnsafe("../x", "leaves the model's folder");
  expectUnsafe("a/..", "leaves the model's folder");
  // Lexically inside the folder, but onyx has no reason to allow ".." at all.
  expectUnsafe("a/../b", "leaves the model's folder");
}

TEST(ExternalLocationTest, RefusesWindowsForms) {
  expectUnsafe("C:\\Windows\\win.ini", "drive letter");
  expectUnsafe("c:/Windows/win.ini", "drive letter");
  expectUnsafe("C:relative.bin", "drive letter");
  expectUnsafe("\\\\server\\share\\w.bin", "UNC");
  expectUnsafe("..\\..\\secret", "backslash");
  expectUnsafe("sub\\w.bin", "backslash");
}

TEST(ExternalLocationTest, RefusesNulBytes) {
  // A C API would see only "w.bin"; the rest must not be silently dropped.
  expectUnsafe("w.bin\0../../etc/passwd"s, "NUL");
  expectUnsafe("\0"s, "NUL");
}

TEST(ExternalLocationTest, RefusesOnnxruntimeMemoryAddressMarker) {
  // onnxruntime reads `*/_ORT_MEM_ADDR_/*` as "the offset is a raw pointer".
  expectUnsafe("*/_ORT_MEM_ADDR_/*", "_ORT_MEM_ADDR_");
  expectUnsafe("_ORT_MEM_ADDR_", "_ORT_MEM_ADDR_");
  expectUnsafe("a/_ORT_MEM_ADDR_/b", "_ORT_MEM_ADDR_");
}

TEST(ExternalLocationTest, MessageQuotesTheLocationAndSaysWhy) {
  const Status status = validateExternalLocation("../x");
  EXPECT_EQ(status.message().rfind("external data location \"../x\" leaves the model's folder", 0),
            0u)
      << status.message();
  // Control bytes from the file are escaped, not sent to the terminal.
  const Status escaped = validateExternalLocation("\x1b[2J/../x");
  EXPECT_NE(escaped.message().find("\\x1b[2J"), std::string::npos) << escaped.message();
  EXPECT_EQ(escaped.message().find('\x1b'), std::string::npos);
}

// ---------------------------------------------------------------------------------------
// slice

TEST(ExternalSliceTest, ReturnsTheRequestedBytes) {
  auto file = MappedFile::fromBuffer("0123456789");
  EXPECT_EQ(*slice(*file, 2, 3), "234");
  EXPECT_EQ(*slice(*file, 0, 10), "0123456789");
  EXPECT_EQ(*slice(*file, 7, std::nullopt), "789");
  EXPECT_EQ(*slice(*file, 10, std::nullopt), "");
  EXPECT_EQ(*slice(*file, 10, 0), "");
}

TEST(ExternalSliceTest, RefusesRangesPastTheEnd) {
  auto file = MappedFile::fromBuffer("0123456789");
  for (auto [offset, length] : std::vector<std::pair<uint64_t, std::optional<uint64_t>>>{
           {11, std::nullopt}, {11, 0}, {0, 11}, {5, 6}, {10, 1}}) {
    auto bytes = slice(*file, offset, length);
    ASSERT_FALSE(bytes.isOk()) << offset;
    EXPECT_EQ(bytes.status().code(), ErrorCode::kMalformed);
  }
  const Status status = slice(*file, 5, 6).status();
  for (const char* fragment : {"offset 5", "length 6", "10 bytes"}) {
    EXPECT_NE(status.message().find(fragment), std::string::npos) << status.message();
  }
}

TEST(ExternalSliceTest, RefusesRangesThatWrapAround2To64) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  auto file = MappedFile::fromBuffer("0123456789");
  // offset + length wraps to a small number that a naive `offset + length <= size` accepts.
  EXPECT_EQ(slice(*file, 8, kMax - 7).status().code(), ErrorCode::kMalformed);
  EXPECT_EQ(slice(*file, 2, kMax).status().code(), ErrorCode::kMalformed);
  EXPECT_EQ(slice(*file, kMax, 1).status().code(), ErrorCode::kMalformed);
  EXPECT_EQ(slice(*file, kMax, std::nullopt).status().code(), ErrorCode::kMalformed);
  EXPECT_EQ(slice(*file, kMax, 0).status().code(), ErrorCode::kMalformed);
  auto empty = MappedFile::fromBuffer("");
  EXPECT_EQ(*slice(*empty, 0, 0), "");
  EXPECT_EQ(slice(*empty, 0, 1).status().code(), ErrorCode::kMalformed);
}

// ---------------------------------------------------------------------------------------
// ExternalDataDir, on a real folder:
//   <root>/model/          the model's folder
//   <root>/outside/secret  a file the model must never reach

class ExternalDataDirTest : public ::testing::TestWithParam<BeneathLookup> {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-extdata-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
    model_ = root_ + "/model";
    outside_ = root_ + "/outside";
    ASSERT_EQ(::mkdir(model_.c_str(), 0755), 0);
    ASSERT_EQ(::mkdir(outside_.c_str(), 0755), 0);
    writeFile(outside_ + "/secret", kSecret);
    auto dir = ExternalDataDir::open(model_, GetParam());
    ASSERT_TRUE(dir.isOk()) << dir.status().toString();
    dir_.emplace(std::move(dir).value());
  }
  void TearDown() override {
    dir_.reset();
    std::filesystem::remove_all(root_);
  }

  static void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good()) << path;
  }
  static std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static std::vector<std::string> entries(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  void expectReadRefused(std::string_view location, std::string_view fragment = {}) {
    auto file = dir_->openForRead(location);
    ASSERT_FALSE(file.isOk()) << "read accepted: " << location;
    EXPECT_EQ(file.status().code(), ErrorCode::kUnsafePath) << file.status().toString();
    EXPECT_NE(file.status().message().find(fragment), std::string::npos) << file.status().message();
    // Copying the file into a writer (a model saved elsewhere) resolves it the same way.
    auto writer = AtomicFileWriter::create(root_ + "/copy.bin");
    ASSERT_TRUE(writer.isOk()) << writer.status().toString();
    const Status copied = dir_->copyInto(location, *writer);
    EXPECT_EQ(copied.code(), ErrorCode::kUnsafePath) << "copy accepted: " << location;
    EXPECT_EQ(writer->position(), 0u);
  }
  void expectWriteRefused(std::string_view location, std::string_view fragment = {}) {
    auto writer = dir_->createForWrite(location);
    ASSERT_FALSE(writer.isOk()) << "write accepted: " << location;
    EXPECT_EQ(writer.status().code(), ErrorCode::kUnsafePath) << writer.status().toString();
    EXPECT_NE(writer.status().message().find(fragment), std::string::npos)
        << writer.status().message();
  }
  void expectOutsideUntouched() {
    EXPECT_EQ(readFile(outside_ + "/secret"), kSecret);
    EXPECT_EQ(entries(outside_), std::vector<std::string>{"secret"});
  }

  static constexpr const char* kSecret = "top secret";
  std::string root_, model_, outside_;
  std::optional<ExternalDataDir> dir_;
};

// CVE-2022-25882 (onnx/onnx#3991, fixed by #4400): `external_data.location` was joined to
// the model's folder unchecked, so "../../../etc/passwd" read any file on the machine.
TEST_P(ExternalDataDirTest, CVE_2022_25882_DotDotTraversalIsRefused) {
  expectReadRefused("../../../etc/passwd", "leaves the model's folder");
  expectReadRefused("../outside/secret", "leaves the model's folder");
  expectReadRefused("sub/../../outside/secret", "leaves the model's folder");
  expectReadRefused("..", "leaves the model's folder");
}

// CVE-2024-27318 (fixed by onnx/onnx#5917): the bypass of the fix above. onnx's Python
// loader did not use the checker's rule; it "sanitised" with location.lstrip("/."), which
// strips only leading dots and slashes, so a traversal that does not start the location
// ("subdir/../../secret") survived and was joined to the folder. onyx has one rule, applied
// by the opening call itself, wherever ".." appears.
TEST_P(ExternalDataDirTest, CVE_2024_27318_NestedTraversalBypassIsRefused) {
  ASSERT_EQ(::mkdir((model_ + "/subdir").c_str(), 0755), 0);
  expectReadRefused("subdir/../../outside/secret", "leaves the model's folder");
  expectReadRefused("subdir/./../../outside/secret", "leaves the model's folder");
  expectReadRefused("subdir//..//..//outside/secret", "leaves the model's folder");
  expectReadRefused("./../outside/secret", "leaves the model's folder");
  expectReadRefused(".//../outside/secret", "leaves the model's folder");
  expectReadRefused("subdir/../../../../../../etc/passwd", "leaves the model's folder");
}

// CVE-2025-51480 (onnx/onnx#6959, fixed by #7627): save_external_data joined the location
// to the output folder unchecked and opened the result for writing, so a model whose
// location was "../../somewhere" overwrote any file the process could write.
TEST_P(ExternalDataDirTest, CVE_2025_51480_WriteTraversalIsRefused) {
  ASSERT_EQ(::mkdir((model_ + "/subdir").c_str(), 0755), 0);
  expectWriteRefused("../outside/secret", "leaves the model's folder");
  expectWriteRefused("../outside/new.bin", "leaves the model's folder");
  expectWriteRefused("subdir/../../outside/secret", "leaves the model's folder");
  expectWriteRefused("../../../../../../tmp/onyx-should-not-exist", "leaves the model's folder");
  expectOutsideUntouched();
  EXPECT_FALSE(std::filesystem::exists("/tmp/onyx-should-not-exist"));
}

TEST_P(ExternalDataDirTest, AbsolutePathsAreRefused) {
  const std::string absolute = outside_ + "/secret";
  expectReadRefused(absolute, "absolute path");
  expectReadRefused("/etc/passwd", "absolute path");
  expectWriteRefused(absolute, "absolute path");
  expectWriteRefused(outside_ + "/new.bin", "absolute path");
  expectOutsideUntouched();
}

TEST_P(ExternalDataDirTest, SymbolicLinkPointingOutsideIsRefused) {
  ASSERT_EQ(::symlink((outside_ + "/secret").c_str(), (model_ + "/abs.bin").c_str()), 0);
  ASSERT_EQ(::symlink("../outside/secret", (model_ + "/rel.bin").c_str()), 0);
  expectReadRefused("abs.bin", "symbolic link");
  expectReadRefused("rel.bin", "symbolic link");
  expectWriteRefused("abs.bin", "symbolic link");
  expectWriteRefused("rel.bin", "symbolic link");
  expectOutsideUntouched();
}

TEST_P(ExternalDataDirTest, CopyIntoAppendsTheWholeFileToTheWriter) {
  std::string weights(300000, '\0');
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<char>(i * 13 + 1);
  ASSERT_EQ(::mkdir((model_ + "/sub").c_str(), 0755), 0);
  writeFile(model_ + "/sub/weights.bin", weights);
  auto writer = AtomicFileWriter::create(root_ + "/copy.bin");
  ASSERT_TRUE(writer.isOk()) << writer.status().toString();
  ASSERT_TRUE(writer->write("head").isOk());
  ASSERT_TRUE(dir_->copyInto("sub/weights.bin", *writer).isOk());
  EXPECT_EQ(writer->position(), 4 + weights.size());
  ASSERT_TRUE(writer->commit().isOk());
  EXPECT_EQ(readFile(root_ + "/copy.bin"), "head" + weights);
  auto missing = AtomicFileWriter::create(root_ + "/missing.bin");
  ASSERT_TRUE(missing.isOk());
  EXPECT_EQ(dir_->copyInto("sub/none.bin", *missing).code(), ErrorCode::kNotFound);
}

TEST_P(ExternalDataDirTest, SymbolicLinkToAFileInsideIsStillRefused) {
  writeFile(model_ + "/real.bin", "weights");
  ASSERT_EQ(::symlink("real.bin", (model_ + "/alias.bin").c_str()), 0);
  expectReadRefused("alias.bin", "symbolic link");
  expectWriteRefused("alias.bin", "symbolic link");
  EXPECT_EQ(readFile(model_ + "/real.bin"), "weights");
}

TEST_P(ExternalDataDirTest, SymlinkedSubdirectoryIsRefused) {
  ASSERT_EQ(::symlink("../outside", (model_ + "/linked").c_str()), 0);
  ASSERT_EQ(::mkdir((model_ + "/real").c_str(), 0755), 0);
  ASSERT_EQ(::symlink("real", (model_ + "/inner").c_str()), 0);
  expectReadRefused("linked/secret", "symbolic link");
  expectReadRefused("inner/x.bin", "symbolic link");
  expectWriteRefused("linked/secret", "symbolic link");
  expectWriteRefused("linked/new.bin", "symbolic link");
  expectWriteRefused("inner/new.bin", "symbolic link");
  expectOutsideUntouched();
  EXPECT_TRUE(entries(model_ + "/real").empty());
}

TEST_P(ExternalDataDirTest, HardLinkToAFileOutsideIsRefused) {
  ASSERT_EQ(::link((outside_ + "/secret").c_str(), (model_ + "/hard.bin").c_str()), 0);
  expectReadRefused("hard.bin", "2 hard links");
  expectWriteRefused("hard.bin", "2 hard links");
  EXPECT_EQ(readFile(outside_ + "/secret"), kSecret);
}

TEST_P(ExternalDataDirTest, OnnxruntimeMemoryAddressMarkerIsRefused) {
  expectReadRefused("*/_ORT_MEM_ADDR_/*", "_ORT_MEM_ADDR_");
  expectWriteRefused("*/_ORT_MEM_ADDR_/*", "_ORT_MEM_ADDR_");
}

TEST_P(ExternalDataDirTest, WindowsFormsAndNulBytesAreRefused) {
  writeFile(model_ + "/w.bin", "weights");
  expectReadRefused("..\\outside\\secret", "backslash");
  expectReadRefused("C:\\outside\\secret", "drive letter");
  expectReadRefused("\\\\host\\share\\secret", "UNC");
  expectReadRefused("w.bin\0../../outside/secret"s, "NUL");
  expectWriteRefused("w.bin\0x"s, "NUL");
  expectWriteRefused("sub\\new.bin", "backslash");
}

TEST_P(ExternalDataDirTest, NonRegularFilesAreRefused) {
  ASSERT_EQ(::mkdir((model_ + "/folder").c_str(), 0755), 0);
  ASSERT_EQ(::mkfifo((model_ + "/pipe").c_str(), 0600), 0);
  expectReadRefused("folder", "a directory");
  expectReadRefused("pipe", "a FIFO");  // and does not hang waiting for a writer
  expectWriteRefused("folder", "a directory");
  expectWriteRefused("pipe", "a FIFO");
}

TEST_P(ExternalDataDirTest, MissingFilesAreNotFound) {
  auto file = dir_->openForRead("absent.bin");
  ASSERT_FALSE(file.isOk());
  EXPECT_EQ(file.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(file.status().message().find("absent.bin"), std::string::npos);

  auto nested = dir_->openForRead("no/such/w.bin");
  ASSERT_FALSE(nested.isOk());
  EXPECT_EQ(nested.status().code(), ErrorCode::kNotFound);

  // Writing never creates folders.
  auto writer = dir_->createForWrite("no-such-folder/w.bin");
  ASSERT_FALSE(writer.isOk());
  EXPECT_EQ(writer.status().code(), ErrorCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(model_ + "/no-such-folder"));

  auto missing_dir = ExternalDataDir::open(root_ + "/absent", GetParam());
  ASSERT_FALSE(missing_dir.isOk());
  EXPECT_EQ(missing_dir.status().code(), ErrorCode::kNotFound);
}

TEST_P(ExternalDataDirTest, ReadsAPlainFile) {
  writeFile(model_ + "/w.bin", "weights!");
  auto file = dir_->openForRead("w.bin");
  ASSERT_TRUE(file.isOk()) << file.status().toString();
  EXPECT_EQ((*file)->bytes(), "weights!");
  EXPECT_EQ((*file)->path(), model_ + "/w.bin");
  EXPECT_EQ(dir_->folder(), model_);
}

TEST_P(ExternalDataDirTest, ReadsAFileInAnExistingSubfolder) {
  ASSERT_EQ(::mkdir((model_ + "/a").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((model_ + "/a/b").c_str(), 0755), 0);
  writeFile(model_ + "/a/b/w.bin", "deep");
  auto file = dir_->openForRead("a/b/w.bin");
  ASSERT_TRUE(file.isOk()) << file.status().toString();
  EXPECT_EQ((*file)->bytes(), "deep");
}

TEST_P(ExternalDataDirTest, DotSlashNamesTheSameFileAndMapping) {
  writeFile(model_ + "/w.bin", "weights");
  auto dotted = dir_->openForRead("./w.bin");
  ASSERT_TRUE(dotted.isOk()) << dotted.status().toString();
  EXPECT_EQ((*dotted)->bytes(), "weights");
  auto plain = dir_->openForRead("w.bin");
  ASSERT_TRUE(plain.isOk());
  EXPECT_EQ(dotted->get(), plain->get());
}

TEST_P(ExternalDataDirTest, SlicesOfOneFileShareOneMapping) {
  std::string data;
  for (int i = 0; i < 4096; ++i) data += static_cast<char>(i % 251);
  writeFile(model_ + "/weights.bin", data);

  std::shared_ptr<const MappedFile> first;
  const std::vector<std::pair<uint64_t, uint64_t>> ranges = {
      {0, 16}, {16, 1024}, {1040, 3000}, {4040, 56}};
  for (auto [offset, length] : ranges) {
    // The loader asks once per tensor; the file must be opened and mapped once.
    auto file = dir_->openForRead("weights.bin");
    ASSERT_TRUE(file.isOk()) << file.status().toString();
    if (!first) first = *file;
    EXPECT_EQ(file->get(), first.get());
    auto bytes = slice(**file, offset, length);
    ASSERT_TRUE(bytes.isOk()) << bytes.status().toString();
    EXPECT_EQ(*bytes, std::string_view(data).substr(offset, length));
    EXPECT_EQ(bytes->data(), first->bytes().data() + offset) << "a view, not a copy";
  }
  auto past = slice(*first, 4000, 97);
  ASSERT_FALSE(past.isOk());
  EXPECT_NE(past.status().message().find("weights.bin"), std::string::npos);
}

TEST_P(ExternalDataDirTest, ConcurrentReadsShareOneMapping) {
  writeFile(model_ + "/w.bin", "shared");
  std::vector<const MappedFile*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([this, &seen, i] {
      auto file = dir_->openForRead("w.bin");
      if (file.isOk()) seen[i] = file->get();
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_NE(seen[0], nullptr);
  for (const MappedFile* file : seen) EXPECT_EQ(file, seen[0]);
}

TEST_P(ExternalDataDirTest, CreateForWriteThenCommitProducesTheFile) {
  ASSERT_EQ(::mkdir((model_ + "/data").c_str(), 0755), 0);
  auto writer = dir_->createForWrite("./data/w.bin");
  ASSERT_TRUE(writer.isOk()) << writer.status().toString();
  EXPECT_EQ(writer->path(), model_ + "/data/w.bin");
  ASSERT_TRUE(writer->write("tensor bytes").isOk());
  ASSERT_TRUE(writer->writeZeros(4).isOk());
  ASSERT_TRUE(writer->commit().isOk());
  EXPECT_EQ(readFile(model_ + "/data/w.bin"), "tensor bytes\0\0\0\0"s);
  EXPECT_EQ(entries(model_ + "/data"), std::vector<std::string>{"w.bin"});

  auto top = dir_->createForWrite("top.bin");
  ASSERT_TRUE(top.isOk()) << top.status().toString();
  ASSERT_TRUE(top->write("top").isOk());
  ASSERT_TRUE(top->commit().isOk());
  EXPECT_EQ(readFile(model_ + "/top.bin"), "top");
}

TEST_P(ExternalDataDirTest, RecreatingALocationTruncates) {
  const std::string first(100000, 'a');
  const std::string second = "short";
  for (const std::string* contents : {&first, &second}) {
    auto writer = dir_->createForWrite("w.bin");
    ASSERT_TRUE(writer.isOk()) << writer.status().toString();
    ASSERT_TRUE(writer->write(*contents).isOk());
    ASSERT_TRUE(writer->commit().isOk());
  }
  EXPECT_EQ(std::filesystem::file_size(model_ + "/w.bin"), second.size());
  EXPECT_EQ(readFile(model_ + "/w.bin"), second);
}

TEST_P(ExternalDataDirTest, ResavingInPlaceKeepsOldViewsValid) {
  writeFile(model_ + "/w.bin", "old weights");
  auto old_file = dir_->openForRead("w.bin");
  ASSERT_TRUE(old_file.isOk());
  const std::string_view old_view = (*old_file)->bytes();

  auto writer = dir_->createForWrite("w.bin");
  ASSERT_TRUE(writer.isOk()) << writer.status().toString();
  ASSERT_TRUE(writer->write("new weights, longer").isOk());
  ASSERT_TRUE(writer->commit().isOk());

  EXPECT_EQ(old_view, "old weights");  // the old inode lives on behind the mapping
  auto new_file = dir_->openForRead("w.bin");
  ASSERT_TRUE(new_file.isOk());
  EXPECT_EQ((*new_file)->bytes(), "new weights, longer");
}

TEST_P(ExternalDataDirTest, MovedDirectoryKeepsWorking) {
  writeFile(model_ + "/w.bin", "moved");
  ExternalDataDir moved = std::move(*dir_);
  dir_.reset();
  auto file = moved.openForRead("w.bin");
  ASSERT_TRUE(file.isOk()) << file.status().toString();
  EXPECT_EQ((*file)->bytes(), "moved");
}

INSTANTIATE_TEST_SUITE_P(Lookup, ExternalDataDirTest,
                         ::testing::Values(BeneathLookup::kAuto, BeneathLookup::kComponentWalk),
                         [](const ::testing::TestParamInfo<BeneathLookup>& lookup) {
                           return lookup.param == BeneathLookup::kAuto ? "Openat2"
                                                                       : "ComponentWalk";
                         });

}  // namespace
}  // namespace onyx
