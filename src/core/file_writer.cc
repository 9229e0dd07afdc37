// onyx/core/file_writer.cc — the write-beside-and-rename file writer.
#include "onyx/core/file_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "core/errno_text.h"
#include "onyx/core/quote.h"

namespace onyx {
namespace {

// Linux moves at most about 2 GiB per write(2); 1 GiB chunks stay well under that while
// keeping the number of system calls negligible.
constexpr size_t kMaxChunk = size_t{1} << 30;
// Writes of this many bytes or more are not copied through the buffer.
constexpr size_t kDirectWriteSize = size_t{1} << 20;

// Only the temporary's name needs to be unique; keep it short of NAME_MAX (255) whatever
// the destination's name is.
constexpr size_t kMaxNameInTemp = 100;
constexpr int kCreateAttempts = 16;

uint64_t randomBits(int attempt) {
  uint64_t value = 0;
  if (::getrandom(&value, sizeof value, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof value)) {
    return value;
  }
  // No entropy yet (very early boot): uniqueness, not secrecy, is what matters here, and
  // O_EXCL catches any collision anyway.
  struct timespec ts {};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  value = static_cast<uint64_t>(ts.tv_nsec) ^ (static_cast<uint64_t>(ts.tv_sec) << 30);
  value ^= static_cast<uint64_t>(::getpid()) << 40;
  value ^= static_cast<uint64_t>(attempt) * 0x9E3779B97F4A7C15ull;
  return value;
}

std::string hex64(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<size_t>(i)] = kDigits[value & 0xF];
    value >>= 4;
  }
  return out;
}

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

Result<AtomicFileWriter> AtomicFileWriter::create(const std::string& destination) {
  if (destination.empty()) {
    return Status(ErrorCode::kInvalidArgument, "cannot write a file with an empty name");
  }
  if (destination.back() == '/') {
    return Status(ErrorCode::kInvalidArgument,
                  "cannot write " + quotedPath(destination) + ": the name ends with '/'");
  }
  const size_t slash = destination.rfind('/');
  std::string dir;
  std::string_view name = destination;
  if (slash == std::string::npos) {
    dir = ".";
  } else {
    dir = slash == 0 ? std::string("/") : destination.substr(0, slash);
    name = std::string_view(destination).substr(slash + 1);
  }
  const int dir_fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) {
    const int err = errno;
    const ErrorCode code =
        (err == ENOENT || err == ENOTDIR) ? ErrorCode::kNotFound : ErrorCode::kIoError;
    return Status(code, "cannot write " + quotedPath(destination) + ": cannot open its folder " +
                            quotedPath(dir) + ": " + errnoText(err));
  }
  auto writer = createAt(dir_fd, name, destination);
  ::close(dir_fd);
  return writer;
}

Result<AtomicFileWriter> AtomicFileWriter::createAt(int dir_fd, std::string_view name_in_dir,
                                                    std::string display_path) {
  if (name_in_dir.empty() || name_in_dir == "." || name_in_dir == ".." ||
      name_in_dir.find('/') != std::string_view::npos ||
      name_in_dir.find('\0') != std::string_view::npos) {
    return Status(ErrorCode::kInvalidArgument, "cannot write " + quotedPath(display_path) + ": " +
                                                   quotedPath(name_in_dir) +
                                                   " is not a plain file name");
  }
  AtomicFileWriter writer;
  writer.display_path_ = std::move(display_path);
  writer.dest_name_.assign(name_in_dir);

  // A descriptor of our own, and a real one (dir_fd may be O_PATH, which fsync refuses).
  writer.dir_fd_ = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (writer.dir_fd_ < 0) {
    const int err = errno;
    writer.done_ = true;
    return Status(ErrorCode::kIoError, "cannot write " + quotedPath(writer.display_path_) +
                                           ": cannot open its folder: " + errnoText(err));
  }

  // Fail now rather than after writing gigabytes: rename(2) cannot replace a folder.
  struct stat st;
  if (::fstatat(writer.dir_fd_, writer.dest_name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISDIR(st.st_mode)) {
    writer.abandon();
    return Status(ErrorCode::kInvalidArgument,
                  "cannot write " + quotedPath(writer.display_path_) + ": it is a directory");
  }

  const std::string prefix =
      "." + writer.dest_name_.substr(0, std::min(writer.dest_name_.size(), kMaxNameInTemp)) +
      ".onyx-tmp-";
  int err = 0;
  for (int attempt = 0; attempt < kCreateAttempts; ++attempt) {
    std::string temp = prefix + hex64(randomBits(attempt));
    const int fd = ::openat(writer.dir_fd_, temp.c_str(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd >= 0) {
      writer.fd_ = fd;
      writer.temp_name_ = std::move(temp);
      break;
    }
    err = errno;
    if (err != EEXIST && err != EINTR) break;
  }
  if (writer.fd_ < 0) {
    writer.abandon();
    return Status(ErrorCode::kIoError, "cannot create a temporary file beside " +
                                           quotedPath(writer.display_path_) + ": " +
                                           errnoText(err));
  }
  writer.buffer_.reset(new char[kBufferSize]);
  return writer;
}

AtomicFileWriter::AtomicFileWriter(AtomicFileWriter&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      dir_fd_(std::exchange(other.dir_fd_, -1)),
      temp_name_(std::move(other.temp_name_)),
      dest_name_(std::move(other.dest_name_)),
      display_path_(std::move(other.display_path_)),
      buffer_(std::move(other.buffer_)),
      buffered_(std::exchange(other.buffered_, 0)),
      position_(std::exchange(other.position_, 0)),
      done_(std::exchange(other.done_, true)),
      error_(std::move(other.error_)) {}

AtomicFileWriter& AtomicFileWriter::operator=(AtomicFileWriter&& other) noexcept {
  if (this != &other) {
    abandon();
    fd_ = std::exchange(other.fd_, -1);
    dir_fd_ = std::exchange(other.dir_fd_, -1);
    temp_name_ = std::move(other.temp_name_);
    dest_name_ = std::move(other.dest_name_);
    display_path_ = std::move(other.display_path_);
    buffer_ = std::move(other.buffer_);
    buffered_ = std::exchange(other.buffered_, 0);
    position_ = std::exchange(other.position_, 0);
    done_ = std::exchange(other.done_, true);
    error_ = std::move(other.error_);
  }
  return *this;
}

AtomicFileWriter::~AtomicFileWriter() { abandon(); }

Status AtomicFileWriter::closedError() const {
  return Status(ErrorCode::kInvalidArgument, "the writer of " + quotedPath(display_path_) +
                                                 " was already committed or abandoned");
}

Status AtomicFileWriter::failWith(Status status) {
  if (error_.isOk()) error_ = status;
  return status;
}

Status AtomicFileWriter::writeFully(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, std::min(size, kMaxChunk));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      return failWith(Status(ErrorCode::kIoError,
                             "cannot write " + quotedPath(display_path_) + ": " + errnoText(err)));
    }
    if (n == 0) {
      // write(2) returning 0 for a non-empty request would otherwise loop forever.
      return failWith(Status(ErrorCode::kIoError,
                             "cannot write " + quotedPath(display_path_) + ": no progress"));
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status::ok();
}

Status AtomicFileWriter::flushBuffer() {
  if (buffered_ == 0) return Status::ok();
  Status status = writeFully(buffer_.get(), buffered_);
  buffered_ = 0;
  return status;
}

Status AtomicFileWriter::write(const void* data, size_t size) {
  if (done_) return closedError();
  if (!error_.isOk()) return error_;
  if (size == 0) return Status::ok();
  if (size > std::numeric_limits<uint64_t>::max() - position_) {
    return failWith(Status(ErrorCode::kLimitExceeded,
                           "cannot write " + quotedPath(display_path_) + ": file size overflows"));
  }
  const char* bytes = static_cast<const char*>(data);
  if (size >= kDirectWriteSize) {
    // A large block (weights, a caller's own buffer) goes straight to write(2) after what is
    // buffered: copying it through the buffer would cost one more pass over its bytes.
    ONYX_RETURN_IF_ERROR(flushBuffer());
    ONYX_RETURN_IF_ERROR(writeFully(bytes, size));
  } else if (size <= kBufferSize - buffered_) {
    memcpy(buffer_.get() + buffered_, bytes, size);
    buffered_ += size;
  } else {
    ONYX_RETURN_IF_ERROR(flushBuffer());
    memcpy(buffer_.get(), bytes, size);
    buffered_ = size;
  }
  position_ += size;
  return Status::ok();
}

Status AtomicFileWriter::copyFrom(int source_fd, uint64_t offset, uint64_t length) {
  if (done_) return closedError();
  if (!error_.isOk()) return error_;
  if (length > std::numeric_limits<uint64_t>::max() - position_) {
    return failWith(Status(ErrorCode::kLimitExceeded,
                           "cannot write " + quotedPath(display_path_) + ": file size overflows"));
  }
  ONYX_RETURN_IF_ERROR(flushBuffer());
  uint64_t left = length;
  while (left > 0) {
    auto from = static_cast<off_t>(offset + (length - left));
    const ssize_t n =
        ::copy_file_range(source_fd, &from, fd_, nullptr,
                          static_cast<size_t>(std::min<uint64_t>(left, kMaxChunk)), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // Not between these two files (another file system before Linux 5.19, a special
      // file, no such call) or not all of it: the rest the ordinary way, which names a
      // real failure.
      break;
    }
    left -= static_cast<uint64_t>(n);
  }
  if (left > 0) {
    ONYX_RETURN_IF_ERROR(copyThroughBuffer(source_fd, offset + (length - left), left));
  }
  position_ += length;
  return Status::ok();
}

Status AtomicFileWriter::copyThroughBuffer(int source_fd, uint64_t offset, uint64_t length) {
  while (length > 0) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(length, kBufferSize));
    const ssize_t n = ::pread(source_fd, buffer_.get(), want, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? errnoText(errno) : "the source ended early";
      return failWith(Status(ErrorCode::kIoError,
                             "cannot copy into " + quotedPath(display_path_) + ": " + why));
    }
    ONYX_RETURN_IF_ERROR(writeFully(buffer_.get(), static_cast<size_t>(n)));
    offset += static_cast<uint64_t>(n);
    length -= static_cast<uint64_t>(n);
  }
  return Status::ok();
}

Status AtomicFileWriter::writeZeros(uint64_t count) {
  if (done_) return closedError();
  if (!error_.isOk()) return error_;
  if (count > std::numeric_limits<uint64_t>::max() - position_) {
    return failWith(Status(ErrorCode::kLimitExceeded,
                           "cannot write " + quotedPath(display_path_) + ": file size overflows"));
  }
  while (count > 0) {
    if (buffered_ == kBufferSize) ONYX_RETURN_IF_ERROR(flushBuffer());
    const size_t n = static_cast<size_t>(std::min<uint64_t>(count, kBufferSize - buffered_));
    memset(buffer_.get() + buffered_, 0, n);
    buffered_ += n;
    position_ += n;
    count -= n;
  }
  return Status::ok();
}

Status AtomicFileWriter::commit(SyncMode sync) {
  if (done_) return closedError();
  if (!error_.isOk()) {
    Status status = error_;
    abandon();
    return status;
  }
  Status status = flushBuffer();
  if (status.isOk() && sync == SyncMode::kFsync && ::fsync(fd_) != 0) {
    const int err = errno;
    status = Status(ErrorCode::kIoError, "cannot write " + quotedPath(display_path_) +
                                             ": fsync failed: " + errnoText(err));
  }
  if (status.isOk()) {
    // Linux releases the descriptor even when close reports EINTR; only real errors
    // (for example a deferred write failure on a network file system) count.
    const int rc = ::close(fd_);
    const int err = errno;
    fd_ = -1;
    if (rc != 0 && err != EINTR) {
      status = Status(ErrorCode::kIoError, "cannot write " + quotedPath(display_path_) +
                                               ": close failed: " + errnoText(err));
    }
  }
  if (status.isOk() && ::renameat(dir_fd_, temp_name_.c_str(), dir_fd_, dest_name_.c_str()) != 0) {
    const int err = errno;
    status = Status(ErrorCode::kIoError,
                    "cannot replace " + quotedPath(display_path_) + ": " + errnoText(err));
  }
  if (!status.isOk()) {
    abandon();
    return status;
  }

  // The rename happened: from here on the temporary no longer exists.
  temp_name_.clear();
  done_ = true;
  buffer_.reset();
  if (sync == SyncMode::kFsync && ::fsync(dir_fd_) != 0 && errno != EINVAL) {
    const int err = errno;
    closeFd(dir_fd_);
    return Status(ErrorCode::kIoError, quotedPath(display_path_) +
                                           " was written, but its folder could not be synced, "
                                           "so the rename may not survive a power loss: " +
                                           errnoText(err));
  }
  closeFd(dir_fd_);
  return Status::ok();
}

void AtomicFileWriter::abandon() {
  closeFd(fd_);
  if (!temp_name_.empty() && dir_fd_ >= 0) ::unlinkat(dir_fd_, temp_name_.c_str(), 0);
  temp_name_.clear();
  closeFd(dir_fd_);
  buffer_.reset();
  buffered_ = 0;
  done_ = true;
}

}  // namespace onyx
