// onyx/core/status.h — errors as values: Status, Result<T>.
//
// Nothing in onyx's public API throws. A failure is a Status carrying a code, a
// message, the path into the model where it happened (for example
// `graph.node[12](conv1).attribute[3](pads)`) and, for wire errors, the byte offset
// in the input. Result<T> is a value or a Status.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

enum class ErrorCode : uint8_t {
  kOk = 0,
  kInvalidArgument,   // the caller asked for something that makes no sense
  kMalformed,         // the bytes are not a valid encoding (truncated, bad wire type, ...)
  kLimitExceeded,     // the input is well formed but passes one of onyx's safety limits
  kUnsafePath,        // an external-data location that would leave the model's folder
  kNotFound,          // a file or a named thing that is not there
  kIoError,           // the operating system refused a read or a write
  kUnsupported,       // valid input that onyx does not handle
  kInternal,          // a bug in onyx
  kCancelled,         // the caller cancelled the work (RunCancellation)
  kDeadlineExceeded,  // the work passed the deadline the caller gave it
};

/// The stable lower-case name of a code ("malformed", "unsafe-path", ...).
std::string_view errorCodeName(ErrorCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return {}; }
  /// One success, for accessors that return a Status by reference (Result<T>::status()).
  static const Status& okStatus();

  bool isOk() const { return code_ == ErrorCode::kOk; }
  explicit operator bool() const { return isOk(); }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  /// Dotted path into the model, outermost first; empty when the error is not inside one.
  const std::string& path() const { return path_; }
  /// Byte offset in the input where a decoding error was found.
  std::optional<uint64_t> offset() const { return offset_; }

  /// Prepends one path segment: callers add their own segment as an error travels out.
  Status& within(std::string_view segment);
  Status& atOffset(uint64_t offset) {
    offset_ = offset;
    return *this;
  }

  /// `path: message (at byte N)`, the form diagnostics print.
  std::string toString() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
  std::string path_;
  std::optional<uint64_t> offset_;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : state_(std::move(status)) {}  // NOLINT: implicit by design

  bool isOk() const { return state_.index() == 0; }
  explicit operator bool() const { return isOk(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Status& status() const { return isOk() ? Status::okStatus() : std::get<1>(state_); }
  Status takeStatus() && { return isOk() ? Status() : std::get<1>(std::move(state_)); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace onyx

/// Returns from the enclosing function when `expr` (a Status) is an error.
#define ONYX_RETURN_IF_ERROR(expr)                 \
  do {                                             \
    ::onyx::Status onyx_status_ = (expr);          \
    if (!onyx_status_.isOk()) return onyx_status_; \
  } while (0)

#pragma GCC visibility pop
