// onyx/serde/external_path.cc — validation and beneath-the-folder opening of external data.
#include "onyx/serde/external_path.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <utility>

#include "core/errno_text.h"
#include "onyx/core/quote.h"

namespace onyx {
namespace {

constexpr std::string_view kOrtMemAddr = "_ORT_MEM_ADDR_";
constexpr int kOpenAttempts = 8;  // openat2 asks for a retry when a rename races it

Status unsafe(std::string_view location, std::string_view why) {
  return Status(ErrorCode::kUnsafePath,
                "external data location " + quotedPath(location) + " " + std::string(why));
}

bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string joinPath(const std::string& folder, std::string_view rest) {
  if (folder.empty() || folder == ".") return std::string(rest);
  if (folder.back() == '/') return folder + std::string(rest);
  return folder + "/" + std::string(rest);
}

// Opens `relative` (already normalised: no empty, "." or ".." components) beneath `root`
// one component at a time, refusing any symbolic link with ELOOP. Folders on the way are
// held as O_PATH descriptors, so nothing is looked up by name twice.
int openBeneathByWalking(int root, const std::string& relative, int flags) {
  int current = root;
  size_t start = 0;
  for (;;) {
    const size_t slash = relative.find('/', start);
    const std::string part = relative.substr(start, slash - start);
    const bool last = slash == std::string::npos;
    // O_DIRECTORY would turn a symbolic link into ENOTDIR; leave it out and look at what
    // was opened instead, so that every link is reported as one.
    const int part_flags =
        last ? (flags & ~O_DIRECTORY) | O_NOFOLLOW : O_PATH | O_NOFOLLOW | O_CLOEXEC;
    const bool want_dir = !last || (flags & O_DIRECTORY) != 0;
    int fd;
    do {
      fd = ::openat(current, part.c_str(), part_flags);
    } while (fd < 0 && errno == EINTR);
    int err = errno;
    if (fd >= 0) {
      // O_PATH|O_NOFOLLOW opens a symbolic link itself rather than failing.
      struct stat st;
      if (::fstat(fd, &st) != 0) {
        err = errno;
      } else if (S_ISLNK(st.st_mode)) {
        err = ELOOP;
      } else if (want_dir && !S_ISDIR(st.st_mode)) {
        err = ENOTDIR;
      } else {
        err = 0;
      }
      if (err != 0) ::close(fd);
    }
    if (current != root) ::close(current);
    if (fd < 0 || err != 0) {
      errno = err;
      return -1;
    }
    if (last) return fd;
    current = fd;
    start = slash + 1;
  }
}

// Opens `relative` beneath `root` following no symbolic link. Returns -1 with errno set.
int openBeneath(int root, const std::string& relative, int flags, BeneathLookup lookup) {
  if (lookup == BeneathLookup::kComponentWalk) return openBeneathByWalking(root, relative, flags);
  struct open_how how {};
  how.flags = static_cast<uint64_t>(flags);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  for (int attempt = 0;; ++attempt) {
    const long fd = ::syscall(SYS_openat2, root, relative.c_str(), &how, sizeof how);
    if (fd >= 0) return static_cast<int>(fd);
    // EAGAIN: a concurrent rename or mount made the kernel unsure the walk stayed beneath.
    if ((errno == EINTR || errno == EAGAIN) && attempt + 1 < kOpenAttempts) continue;
    // ENOSYS: a kernel before 5.6. EPERM: a seccomp filter that refuses system calls it
    // does not know. The walk enforces the same rules, so falling back loses nothing.
    if (errno == ENOSYS || errno == EPERM) return openBeneathByWalking(root, relative, flags);
    return -1;
  }
}

const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// Turns a failed openBeneath() into a Status; `display` is the folder joined with the
// normalised location.
Status openError(int err, std::string_view location, const std::string& display) {
  switch (err) {
    case ELOOP:
      return unsafe(location,
                    "is or passes through a symbolic link, and onyx follows none in external "
                    "data paths");
    case EXDEV: return unsafe(location, "leaves the model's folder");
    case ENOENT:
      return Status(ErrorCode::kNotFound,
                    "external data file " + quotedPath(display) + " does not exist");
    case ENOTDIR:
      return Status(ErrorCode::kNotFound, "external data location " + quotedPath(location) +
                                              ": a component on the way is not a folder");
    default:
      return Status(ErrorCode::kIoError, "cannot open external data file " + quotedPath(display) +
                                             ": " + errnoText(err));
  }
}

// The checks every existing external data file must pass, for reading and for replacing.
Status checkExistingFile(const struct stat& st, std::string_view location) {
  if (S_ISLNK(st.st_mode)) {
    return unsafe(location, "is a symbolic link, and onyx follows none in external data paths");
  }
  if (!S_ISREG(st.st_mode)) {
    return unsafe(location, std::string("is ") + fileKind(st.st_mode) +
                                "; external data must be a regular file");
  }
  if (st.st_nlink > 1) {
    return unsafe(location, "is a file with " + std::to_string(st.st_nlink) +
                                " hard links; a second link may be a name for a file outside "
                                "the model's folder");
  }
  return Status::ok();
}

}  // namespace

Result<std::string> normalizeExternalLocation(std::string_view location) {
  if (location.empty()) return unsafe(location, "is empty");
  if (location.find('\0') != std::string_view::npos) {
    return unsafe(location, "contains a NUL byte");
  }
  if (location.size() >= 2 && location[0] == '\\' && location[1] == '\\') {
    return unsafe(location, "is a Windows UNC path; locations are relative to the model's folder");
  }
  if (location.size() >= 2 && isAsciiLetter(location[0]) && location[1] == ':') {
    return unsafe(location,
                  "starts with a Windows drive letter; locations are relative to the model's "
                  "folder");
  }
  if (location.find('\\') != std::string_view::npos) {
    return unsafe(location, "contains a backslash; locations separate folders with '/'");
  }
  if (location.front() == '/') {
    return unsafe(location, "is an absolute path; locations are relative to the model's folder");
  }
  if (location.back() == '/') {
    return unsafe(location, "ends with '/', so it names a folder, not a file");
  }

  std::string normal;
  normal.reserve(location.size());
  size_t start = 0;
  while (start <= location.size()) {
    size_t end = location.find('/', start);
    if (end == std::string_view::npos) end = location.size();
    const std::string_view part = location.substr(start, end - start);
    start = end + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") return unsafe(location, "leaves the model's folder (\"..\" is not allowed)");
    if (part == kOrtMemAddr) {
      return unsafe(location,
                    "uses onnxruntime's _ORT_MEM_ADDR_ marker (\"the offset is a memory "
                    "address\"), which no model file may use");
    }
    if (!normal.empty()) normal += '/';
    normal += part;
  }
  if (normal.empty()) {
    return unsafe(location, "names the model's folder itself, not a file in it");
  }
  return normal;
}

Status validateExternalLocation(std::string_view location) {
  return normalizeExternalLocation(location).takeStatus();
}

Result<std::string_view> slice(const MappedFile& file, uint64_t offset,
                               std::optional<uint64_t> length) {
  const uint64_t size = file.size();
  // Compare against what remains after the offset, so offset + length is never formed
  // and cannot wrap.
  if (offset > size || (length && *length > size - offset)) {
    const std::string name =
        file.path().empty() ? std::string("the in-memory model") : quotedPath(file.path());
    const std::string length_text = length ? std::to_string(*length) : "to the end";
    return Status(ErrorCode::kMalformed, "external data range (offset " + std::to_string(offset) +
                                             ", length " + length_text + ") lies outside " + name +
                                             ", which has " + std::to_string(size) + " bytes");
  }
  const uint64_t count = length ? *length : size - offset;
  return file.bytes().substr(static_cast<size_t>(offset), static_cast<size_t>(count));
}

Result<ExternalDataDir> ExternalDataDir::open(const std::string& model_dir, BeneathLookup lookup) {
  const std::string folder = model_dir.empty() ? std::string(".") : model_dir;
  int fd;
  do {
    fd = ::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int err = errno;
    const ErrorCode code =
        (err == ENOENT || err == ENOTDIR) ? ErrorCode::kNotFound : ErrorCode::kIoError;
    return Status(code,
                  "cannot open the model's folder " + quotedPath(folder) + ": " + errnoText(err));
  }
  ExternalDataDir dir;
  dir.fd_ = fd;
  dir.lookup_ = lookup;
  dir.folder_ = folder;
  dir.cache_ = std::make_unique<Cache>();
  return dir;
}

ExternalDataDir::ExternalDataDir(ExternalDataDir&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      lookup_(other.lookup_),
      folder_(std::move(other.folder_)),
      cache_(std::move(other.cache_)) {}

ExternalDataDir& ExternalDataDir::operator=(ExternalDataDir&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    lookup_ = other.lookup_;
    folder_ = std::move(other.folder_);
    cache_ = std::move(other.cache_);
  }
  return *this;
}

ExternalDataDir::~ExternalDataDir() {
  if (fd_ >= 0) ::close(fd_);
}

Result<int> ExternalDataDir::openExisting(const std::string& key, std::string_view location,
                                          const std::string& display, uint64_t* size) const {
  // O_NONBLOCK so that a FIFO cannot block the open; it is refused just below anyway.
  const int fd = openBeneath(fd_, key, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, lookup_);
  if (fd < 0) return openError(errno, location, display);

  struct stat st;
  Status status;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    status = Status(ErrorCode::kIoError, "cannot inspect external data file " +
                                             quotedPath(display) + ": " + errnoText(err));
  } else {
    status = checkExistingFile(st, location);
  }
  if (!status.isOk()) {
    ::close(fd);
    return status;
  }
  *size = static_cast<uint64_t>(st.st_size);
  return fd;
}

Result<std::shared_ptr<const MappedFile>> ExternalDataDir::openForRead(std::string_view location) {
  auto normal = normalizeExternalLocation(location);
  if (!normal) return std::move(normal).takeStatus();
  const std::string& key = *normal;

  std::lock_guard<std::mutex> lock(cache_->mutex);
  if (auto it = cache_->files.find(key); it != cache_->files.end()) return it->second;

  const std::string display = joinPath(folder_, key);
  uint64_t size = 0;
  Result<int> fd = openExisting(key, location, display, &size);
  if (!fd) return std::move(fd).takeStatus();
  auto mapped = MappedFile::fromFd(*fd, display);
  ::close(*fd);
  if (!mapped) return mapped;
  cache_->files.emplace(key, *mapped);
  return mapped;
}

Status ExternalDataDir::copyInto(std::string_view location, AtomicFileWriter& writer) const {
  auto normal = normalizeExternalLocation(location);
  if (!normal) return std::move(normal).takeStatus();
  uint64_t size = 0;
  Result<int> fd = openExisting(*normal, location, joinPath(folder_, *normal), &size);
  if (!fd) return std::move(fd).takeStatus();
  Status status = writer.copyFrom(*fd, 0, size);
  ::close(*fd);
  return status;
}

Result<AtomicFileWriter> ExternalDataDir::createForWrite(std::string_view location) {
  auto normal = normalizeExternalLocation(location);
  if (!normal) return std::move(normal).takeStatus();
  const std::string& key = *normal;
  const std::string display = joinPath(folder_, key);

  const size_t slash = key.rfind('/');
  const std::string name = slash == std::string::npos ? key : key.substr(slash + 1);
  int parent_fd = fd_;
  if (slash != std::string::npos) {
    const std::string parent = key.substr(0, slash);
    parent_fd = openBeneath(fd_, parent, O_PATH | O_DIRECTORY | O_CLOEXEC, lookup_);
    if (parent_fd < 0) {
      const int err = errno;
      if (err == ENOENT) {
        return Status(ErrorCode::kNotFound, "cannot write external data file " +
                                                quotedPath(display) + ": its folder " +
                                                quotedPath(joinPath(folder_, parent)) +
                                                " does not exist (onyx does not create "
                                                "folders for external data)");
      }
      return openError(err, location, display);
    }
  }

  Status status;
  struct stat st;
  if (::fstatat(parent_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    status = checkExistingFile(st, location);
  } else if (errno != ENOENT) {
    const int err = errno;
    status = Status(ErrorCode::kIoError, "cannot inspect external data file " +
                                             quotedPath(display) + ": " + errnoText(err));
  }
  Result<AtomicFileWriter> writer = status.isOk()
                                        ? AtomicFileWriter::createAt(parent_fd, name, display)
                                        : Result<AtomicFileWriter>(std::move(status));
  if (parent_fd != fd_) ::close(parent_fd);
  if (writer) {
    std::lock_guard<std::mutex> lock(cache_->mutex);
    cache_->files.erase(key);
  }
  return writer;
}

}  // namespace onyx
