// onyx/core/file_writer.h — write a file beside its destination, then rename it in.
//
// Saving must never destroy what was there before: a crash, a full disk or an error
// half-way leaves the old file exactly as it was. AtomicFileWriter writes a temporary in
// the destination's folder and renames it over the destination only on commit().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "onyx/core/status.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Whether commit() waits for the data to reach the disk.
enum class SyncMode : uint8_t {
  kFsync,      // fsync the file before the rename and the folder after it (durable)
  kSkipFsync,  // rename without waiting: atomic for other readers, not across power loss
};

/// A buffered writer of one new file that replaces its destination atomically on commit().
///
/// The temporary is `.<name>.onyx-tmp-<random>` in the destination's folder, created with
/// O_CREAT|O_EXCL|O_NOFOLLOW and mode 0644 (less the process umask). The destination is
/// replaced by rename(2): readers see either the old or the new file, never a mix; if the
/// destination is a symbolic link, the link itself is replaced, not its target. The new
/// file does not inherit the old one's mode, owner or hard links.
///
/// Writes under 1 MiB go through a 4 MiB buffer; a write of 1 MiB or more goes straight
/// to write(2) in chunks of up to 1 GiB, after what is buffered. Short writes and EINTR are
/// retried. After the first failed write every later call fails with the same error and commit()
/// removes the temporary, so a caller may check only commit()'s result.
///
/// If the writer is destroyed or abandon()ed before commit(), or commit() fails, the
/// temporary is removed and the destination is untouched (one exception: see commit()).
///
/// Thread safety: none; one writer is used by one thread at a time. Move-only.
class AtomicFileWriter {
 public:
  static constexpr size_t kBufferSize = size_t{4} << 20;

  /// Starts a new file that will replace `destination` (which need not exist). The folder
  /// must exist and be writable. Errors: kInvalidArgument for an empty destination or one
  /// ending in '/'; kNotFound when the folder is missing; kIoError when the temporary
  /// cannot be created (read-only folder or file system, permissions, full disk).
  static Result<AtomicFileWriter> create(const std::string& destination);

  /// As create(), in the folder open as `dir_fd` (which may be an O_PATH descriptor; the
  /// writer keeps its own descriptor, so the caller may close `dir_fd` at once).
  /// `name_in_dir` is a single file name (no '/', not "." or ".."); `display_path` names
  /// the destination in messages. Used by ExternalDataDir so that the folder is resolved
  /// once, safely, and never looked up by path again.
  static Result<AtomicFileWriter> createAt(int dir_fd, std::string_view name_in_dir,
                                           std::string display_path);

  AtomicFileWriter(AtomicFileWriter&& other) noexcept;
  AtomicFileWriter& operator=(AtomicFileWriter&& other) noexcept;
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  /// Abandons the file unless it was committed.
  ~AtomicFileWriter();

  /// Appends `size` bytes. Errors: kIoError (with the system's reason), or
  /// kInvalidArgument after commit() or abandon().
  Status write(const void* data, size_t size);
  Status write(std::string_view bytes) { return write(bytes.data(), bytes.size()); }
  /// Appends `length` bytes of the file open as `source_fd` (for reading; the caller keeps
  /// it), from its byte `offset`, after what is buffered: inside the kernel where it can
  /// (copy_file_range(2), which may share the blocks on file systems that do), else read and
  /// written through the buffer. Errors: kIoError, naming the destination; a source shorter
  /// than `offset + length` is one.
  Status copyFrom(int source_fd, uint64_t offset, uint64_t length);
  /// Appends `count` zero bytes (alignment padding). Cost is linear in `count`.
  Status writeZeros(uint64_t count);

  /// Bytes accepted so far, buffered or not: the offset the next write will land at.
  uint64_t position() const { return position_; }
  /// The destination as given (for messages).
  const std::string& path() const { return display_path_; }

  /// Flushes the buffer, optionally fsyncs, closes and renames the temporary over the
  /// destination. After a failure before the rename the temporary is removed and the
  /// destination is untouched. With SyncMode::kFsync the folder is fsynced after the
  /// rename; if that alone fails the new file is already in place and the error (kIoError)
  /// says so. Calling commit() twice, or after abandon(), is kInvalidArgument.
  Status commit(SyncMode sync = SyncMode::kFsync);

  /// Closes and removes the temporary; the destination is untouched. Idempotent.
  void abandon();

 private:
  AtomicFileWriter() = default;

  Status flushBuffer();
  Status writeFully(const char* data, size_t size);
  Status copyThroughBuffer(int source_fd, uint64_t offset, uint64_t length);
  Status failWith(Status status);
  Status closedError() const;

  int fd_ = -1;      // the temporary, open for writing; -1 once closed
  int dir_fd_ = -1;  // the destination's folder (a real descriptor: fsync needs one)
  std::string temp_name_;
  std::string dest_name_;
  std::string display_path_;
  std::unique_ptr<char[]> buffer_;
  size_t buffered_ = 0;
  uint64_t position_ = 0;
  bool done_ = false;  // committed or abandoned
  Status error_;       // the first write error; sticky
};

}  // namespace onyx

#pragma GCC visibility pop
