// onyx/core/mapped_file.h — a read-only view of a whole file, mapped or owned.
//
// Models and external data files are mapped, not read: tensors stay views into the
// mapping, so opening a file costs the same for 1 KiB as for 100 GiB and pages are only
// touched when a tensor is used. A MappedFile is shared (std::shared_ptr) because every
// tensor view keeps its file alive, and one file is mapped once per process: sessions of one
// model share its bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "onyx/core/status.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// An immutable byte range holding a whole file: either a private read-only mapping
/// (PROT_READ, MAP_PRIVATE) or an owned in-memory copy.
///
/// Thread safety: immutable after construction; any number of threads may read bytes()
/// at once. Lifetime: views returned by bytes() are valid while any shared_ptr to the
/// MappedFile lives.
///
/// One mapping per file: opening (open(), fromFd()) a file that a live MappedFile already
/// maps returns that MappedFile, so N sessions of one model in a process hold its pages
/// once, not N times (the resident size counts a page once per mapping of it), and tensor
/// views of the same bytes have the same address. A file is the same while its device,
/// inode, size and modification time are: a file replaced since (written beside and renamed
/// over, as onyx's writers do) or rewritten in place gets a mapping of its own. The
/// process-wide table behind this holds no mapping alive and is safe to use from any
/// thread (a mutex; two threads opening one file at once get one mapping). path() is the
/// path of the open that made the mapping.
///
/// Limits: the mapping reflects the file as the kernel sees it. If another process
/// truncates the file while it is mapped, touching the lost pages raises SIGBUS, which no
/// library can turn into an error value; writers in onyx never truncate in place (they
/// write beside and rename), so this only happens when a third party edits the file.
/// Writes by others to the file may or may not show through a private mapping.
class MappedFile {
 public:
  /// Files up to this size get MADV_WILLNEED (read ahead at once); larger ones are left
  /// to fault in on demand, so mapping cost never grows with the file.
  static constexpr uint64_t kWillNeedLimit = uint64_t{16} << 20;

  /// Opens and maps `path`. Errors: kNotFound when the file or a folder on the way is
  /// missing; kInvalidArgument when it is not a regular file (directory, FIFO, device,
  /// socket: a FIFO is opened non-blocking so it cannot hang the caller); kIoError for
  /// other refusals by the system (permissions, mmap failure); kLimitExceeded when the
  /// file is larger than the address space (32-bit builds only). Symbolic links in `path`
  /// are followed: the caller chose the path. Untrusted relative locations go through
  /// ExternalDataDir instead.
  static Result<std::shared_ptr<const MappedFile>> open(const std::string& path);

  /// Maps the file open as `fd`. The caller keeps ownership of `fd` and may close it as
  /// soon as this returns (a mapping does not need its descriptor). `path_for_messages`
  /// is only used in error messages and path(). Errors as for open().
  static Result<std::shared_ptr<const MappedFile>> fromFd(int fd, std::string path_for_messages);

  /// Wraps bytes already in memory (a model given as a buffer). path() is empty.
  static std::shared_ptr<const MappedFile> fromBuffer(std::string bytes);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::string_view bytes() const { return {data_, static_cast<size_t>(size_)}; }
  uint64_t size() const { return size_; }
  /// Lets go of this process's copies of the whole pages of `bytes` when they lie in a live
  /// mapping of a file (a later read faults them in again, from the page cache or the file);
  /// nothing for other memory (a buffer's bytes, a string's). For bytes read once into
  /// another form (weights laid out anew for a kernel), whose pages would otherwise stay
  /// resident beside that form.
  static void releasePagesOf(std::string_view bytes);
  /// The path given when the file was mapped (for messages); empty for fromBuffer(). A
  /// later open of the same file through another path shares the mapping and this name.
  const std::string& path() const { return path_; }

 private:
  MappedFile() = default;

  const char* data_ = nullptr;
  uint64_t size_ = 0;
  bool mapped_ = false;  // true when data_ came from mmap and must be unmapped
  std::string owned_;    // the bytes of fromBuffer()
  std::string path_;
};

}  // namespace onyx

#pragma GCC visibility pop
