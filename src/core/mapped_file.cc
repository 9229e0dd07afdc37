// onyx/core/mapped_file.cc — mmap-backed and owned whole-file views.
#include "onyx/core/mapped_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <unordered_map>
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

// What tells one file's contents from another's without reading them. While a mapping of a
// file lives it holds the inode, so no other file can take its (device, inode) pair; the size
// and modification time tell the same file before and after it was rewritten in place.
struct FileIdentity {
  dev_t device;
  ino_t inode;
  uint64_t size;
  int64_t modified_seconds;
  int64_t modified_nanoseconds;
  bool operator==(const FileIdentity&) const = default;
};

struct FileIdentityHash {
  size_t operator()(const FileIdentity& id) const {
    size_t hash = std::hash<uint64_t>()(static_cast<uint64_t>(id.inode));
    for (uint64_t part :
         {static_cast<uint64_t>(id.device), id.size, static_cast<uint64_t>(id.modified_seconds),
          static_cast<uint64_t>(id.modified_nanoseconds)}) {
      hash = hash * 31 + std::hash<uint64_t>()(part);
    }
    return hash;
  }
};

// The mappings alive in this process, by the file they map. Weak: an entry never keeps a
// mapping alive, so the last release of a file unmaps it as before.
struct OpenMappings {
  std::mutex mutex;
  std::unordered_map<FileIdentity, std::weak_ptr<const MappedFile>, FileIdentityHash> files;
};

OpenMappings& openMappings() {
  // Never destroyed: a file opened during exit (by another thread, or by a static object's
  // destructor) must still find it.
  static OpenMappings* mappings = new OpenMappings();
  return *mappings;
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

  // Held while mapping too, so that two threads opening one file at once get one mapping;
  // mmap reads nothing, so the wait is short.
  const FileIdentity identity{st.st_dev, st.st_ino, size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
  OpenMappings& mappings = openMappings();
  std::lock_guard<std::mutex> lock(mappings.mutex);
  if (auto found = mappings.files.find(identity); found != mappings.files.end()) {
    if (std::shared_ptr<const MappedFile> live = found->second.lock()) return live;
  }

  std::shared_ptr<MappedFile> file(new MappedFile());
  file->path_ = std::move(path_for_messages);
  file->size_ = size;
  if (size != 0) {  // mmap refuses 0 bytes
    void* addr = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) {
      const int err = errno;
      return Status(ErrorCode::kIoError, "cannot map " + quotedPath(file->path_) + " (" +
                                             std::to_string(size) + " bytes): " + errnoText(err));
    }
    file->data_ = static_cast<const char*>(addr);
    file->mapped_ = true;
    // Small files are parsed whole right away, so ask for them in one go. Big ones are
    // mostly weights that may never be touched (or only some of them): no hint, so the
    // cost of opening stays independent of size. Hints are advisory; failures are ignored.
    if (size <= kWillNeedLimit) ::madvise(addr, static_cast<size_t>(size), MADV_WILLNEED);
  }
  // Entries of files since released go now, so the table holds about as many entries as
  // there are files mapped.
  std::erase_if(mappings.files, [](const auto& entry) { return entry.second.expired(); });
  mappings.files[identity] = file;
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

void MappedFile::releasePagesOf(std::string_view bytes) {
  if (bytes.empty()) return;
  OpenMappings& mappings = openMappings();
  std::lock_guard<std::mutex> lock(mappings.mutex);
  for (const auto& entry : mappings.files) {
    const std::shared_ptr<const MappedFile> file = entry.second.lock();
    if (file == nullptr || !file->mapped_ || bytes.data() < file->data_ ||
        bytes.data() + bytes.size() > file->data_ + file->size_) {
      continue;
    }
    // A private read-only mapping, never written: its dropped pages read the file again, so
    // the pages at the ends, which may hold other tensors' bytes, go too.
    const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t first = reinterpret_cast<uintptr_t>(bytes.data()) / page * page;
    const uintptr_t last =
        (reinterpret_cast<uintptr_t>(bytes.data()) + bytes.size() + page - 1) / page * page;
    ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
    return;
  }
}

}  // namespace onyx
