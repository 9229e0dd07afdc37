// onyx/serde/external_path.h — the one resolver of external-data locations.
//
// A tensor's `external_data.location` comes from the model file, so it is untrusted: onnx
// has had a CVE for reading or writing outside the model's folder through it almost every
// year (CVE-2022-25882, CVE-2024-27318, CVE-2025-51480). Every reader and writer of
// external data in onyx goes through this file, so there is exactly one set of rules:
//
//  - a location is a relative, '/'-separated path inside the model's folder: no leading
//    '/', no `..` component, no Windows forms (drive letters, backslashes, UNC), no NUL,
//    and not onnxruntime's `_ORT_MEM_ADDR_` marker (which there means "the offset is a raw
//    pointer"); `.` components and repeated '/' are dropped;
//  - files are opened beneath the folder's descriptor with openat2(RESOLVE_BENEATH |
//    RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS): no symbolic link is followed, even one
//    that stays inside the folder, and the folder is never looked up by name again;
//  - only regular files with a single hard link are read; a second link may be a name
//    for a file outside the folder;
//  - writes go beside the destination and are renamed over it, so a data file is always
//    rewritten from scratch (never appended to) and never half-written.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "onyx/core/file_writer.h"
#include "onyx/core/mapped_file.h"
#include "onyx/core/status.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Checks a location syntactically (see the file comment for the rules). Errors are
/// kUnsafePath with a message that quotes the location and says why, for example
/// `external data location "../x" leaves the model's folder`. Does not touch the file
/// system. Thread-safe.
Status validateExternalLocation(std::string_view location);

/// The canonical spelling of a valid location: `.` components and repeated separators
/// removed (`./a//b` -> `a/b`). A trailing '/' names a folder and is refused. Two locations name
/// the same file exactly when their normal forms are equal, so writers group tensors by it. Errors
/// as for validateExternalLocation(). Thread-safe.
Result<std::string> normalizeExternalLocation(std::string_view location);

/// The bytes [offset, offset + length) of `file`; a missing length means "to the end".
/// Overflow-safe: offset + length is never computed. Errors: kMalformed naming the file,
/// the offset, the length and the file's size when the range does not lie inside it.
/// Thread-safe.
Result<std::string_view> slice(const MappedFile& file, uint64_t offset,
                               std::optional<uint64_t> length);

/// How ExternalDataDir finds files beneath its folder. Both enforce the same rules.
enum class BeneathLookup : uint8_t {
  /// openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS); the component
  /// walk when openat2 fails with ENOSYS (kernel before 5.6) or EPERM (a seccomp filter).
  kAuto,
  /// Always walk one component at a time with openat(O_NOFOLLOW), holding each folder as a
  /// descriptor. For tests of that path and for sandboxes that refuse openat2 in other ways.
  kComponentWalk,
};

/// The folder of a model, open as a descriptor, through which all external data is read
/// and written.
///
/// Thread safety: openForRead() and createForWrite() may be called from several threads
/// at once (the mapping cache is guarded by a mutex; a miss maps the file under the lock,
/// so each file is mapped once). Moving or destroying the object while another thread uses
/// it is not allowed. Move-only; a moved-from object may only be assigned to or destroyed.
///
/// Limits: each distinct file read stays mapped until the ExternalDataDir and every tensor
/// view of it are gone; a model split into more files than vm.max_map_count (65530 by
/// default) cannot be mapped all at once. A file changed on disk after its first read is
/// not re-read.
class ExternalDataDir {
 public:
  /// Opens the model's folder. `model_dir` is trusted (the caller's choice, symbolic links
  /// in it are followed); an empty string means the current folder. Errors: kNotFound when
  /// it does not exist or is not a folder; kIoError for other refusals.
  static Result<ExternalDataDir> open(const std::string& model_dir,
                                      BeneathLookup lookup = BeneathLookup::kAuto);

  ExternalDataDir(ExternalDataDir&& other) noexcept;
  ExternalDataDir& operator=(ExternalDataDir&& other) noexcept;
  ExternalDataDir(const ExternalDataDir&) = delete;
  ExternalDataDir& operator=(const ExternalDataDir&) = delete;
  ~ExternalDataDir();

  /// The folder as given to open() ("." when that was empty).
  const std::string& folder() const { return folder_; }

  /// Validates `location`, opens it beneath the folder without following any symbolic
  /// link, checks that it is a regular file with one hard link, and maps it. The same file
  /// (by normalised location) is mapped once and the same MappedFile returned to every
  /// later call. Errors: kUnsafePath for an invalid location, a symbolic link anywhere on
  /// the way, a path that would leave the folder, a non-regular file (directory, FIFO,
  /// device: reading one could hang or never end) or a multiply-linked one; kNotFound when
  /// the file or a folder on the way is missing; kIoError otherwise.
  Result<std::shared_ptr<const MappedFile>> openForRead(std::string_view location);

  /// Validates `location`, opens its parent beneath the folder the same safe way (folders
  /// on the way must already exist and must not be symbolic links), refuses a destination
  /// that is a symbolic link, not a regular file, or has more than one hard link, and
  /// returns a writer that will replace the destination on commit(). The file is always
  /// written whole (re-saving truncates, never appends). Errors as for openForRead(), plus
  /// those of AtomicFileWriter::createAt(). The check of the destination and the rename are
  /// not one atomic step, but rename(2) replaces whatever name is there without following
  /// it, so a link planted in between is replaced, not written through.
  ///
  /// Re-saving in place is safe: tensors that are still views into the old file keep the
  /// old file's mapping (the rename gives the new data a new inode). The location's cache
  /// entry is dropped here, so openForRead() after commit() maps the new file (unless the
  /// location was read again between createForWrite() and commit()).
  Result<AtomicFileWriter> createForWrite(std::string_view location);

  /// Appends the file at `location`, resolved and checked as openForRead() does, to
  /// `writer` whole, inside the kernel where the system can (AtomicFileWriter::copyFrom):
  /// a data file kept as it is when a model is saved elsewhere, never mapped or read into
  /// the process. Errors as for openForRead(), and the writer's.
  Status copyInto(std::string_view location, AtomicFileWriter& writer) const;

 private:
  ExternalDataDir() = default;

  // Opens `key` (normalized `location`) beneath the folder, refusing what openForRead()
  // refuses; the descriptor is the caller's to close, `size` its length.
  Result<int> openExisting(const std::string& key, std::string_view location,
                           const std::string& display, uint64_t* size) const;

  // The cache lives on the heap so that the object stays movable (std::mutex is not).
  struct Cache {
    std::mutex mutex;
    std::unordered_map<std::string, std::shared_ptr<const MappedFile>> files;
  };

  int fd_ = -1;
  BeneathLookup lookup_ = BeneathLookup::kAuto;
  std::string folder_;
  std::unique_ptr<Cache> cache_;
};

}  // namespace onyx

#pragma GCC visibility pop
