// onyx/core/mapped_file.cc — mmap-backed and owned whole-file views.
#include "onyx/core/mapped_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <limits>
#include <utility>

#include "core/errno_text.h"
#include "onyx/core/quote.h"

namespace onyx {
namespace {

const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

}  // namespace

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever;
  // it has no effect on regular files, and fromFd refuses everything else.
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int err = errno;
    const ErrorCode code =
        (err == ENOENT || err == ENOTDIR) ? ErrorCode::kNotFound : ErrorCode::kIoError;
    return Status(code, "cannot open " + quotedPath(path) + ": " + errnoText(err));
  }
  auto result = fromFd(fd, path);
  ::close(fd);
  return result;
}

Result<std::shared_ptr<const MappedFile>> MappedFile::fromFd(int fd,
                                                             std::string path_for_messages) {
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    return Status(ErrorCode::kIoError,
                  "cannot inspect " + quotedPath(path_for_messages) + ": " + errnoText(err));
  }
  if (!S_ISREG(st.st_mode)) {
    return Status(ErrorCode::kInvalidArgument, quotedPath(path_for_messages) + " is " +
                                                   fileKind(st.st_mode) + ", not a regular file");
  }
  if (st.st_size < 0 || static_cast<uint64_t>(st.st_size) > std::numeric_limits<size_t>::max()) {
    return Status(ErrorCode::kLimitExceeded,
                  quotedPath(path_for_messages) + " is too large to map on this platform");
  }
  const auto size = static_cast<uint64_t>(st.st_size);

  std::shared_ptr<MappedFile> file(new MappedFile());
  file->path_ = std::move(path_for_messages);
  file->size_ = size;
  if (size == 0) return std::shared_ptr<const MappedFile>(std::move(file));  // mmap refuses 0

  void* addr = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
  if (addr == MAP_FAILED) {
    const int err = errno;
    file->size_ = 0;
    return Status(ErrorCode::kIoError, "cannot map " + quotedPath(file->path_) + " (" +
                                           std::to_string(size) + " bytes): " + errnoText(err));
  }
  file->data_ = static_cast<const char*>(addr);
  file->mapped_ = true;
  // Small files are parsed whole right away, so ask for them in one go. Big ones are
  // mostly weights that may never be touched (or only some of them): no hint, so the
  // cost of opening stays independent of size. Hints are advisory; failures are ignored.
  if (size <= kWillNeedLimit) ::madvise(addr, static_cast<size_t>(size), MADV_WILLNEED);
  return std::shared_ptr<const MappedFile>(std::move(file));
}

std::shared_ptr<const MappedFile> MappedFile::fromBuffer(std::string bytes) {
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->owned_ = std::move(bytes);
  // The object never moves (it lives behind the shared_ptr), so pointing into owned_ is
  // stable even when the string uses its inline small buffer.
  file->data_ = file->owned_.data();
  file->size_ = file->owned_.size();
  return file;
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<char*>(data_), static_cast<size_t>(size_));
}

}  // namespace onyx
