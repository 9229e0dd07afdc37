#include "onyx/core/status.h"

namespace onyx {

const Status& Status::okStatus() {
  static const Status kOk;
  return kOk;
}

std::string_view errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kInvalidArgument: return "invalid-argument";
    case ErrorCode::kMalformed: return "malformed";
    case ErrorCode::kLimitExceeded: return "limit-exceeded";
    case ErrorCode::kUnsafePath: return "unsafe-path";
    case ErrorCode::kNotFound: return "not-found";
    case ErrorCode::kIoError: return "io-error";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kInternal: return "internal";
    case ErrorCode::kCancelled: return "cancelled";
    case ErrorCode::kDeadlineExceeded: return "deadline-exceeded";
  }
  return "unknown";
}

Status& Status::within(std::string_view segment) {
  if (segment.empty()) return *this;
  if (path_.empty()) {
    path_.assign(segment);
  } else if (path_.front() == '[' || path_.front() == '(') {
    path_.insert(0, segment);
  } else {
    path_.insert(0, 1, '.');
    path_.insert(0, segment);
  }
  return *this;
}

std::string Status::toString() const {
  if (isOk()) return "ok";
  std::string text;
  if (!path_.empty()) {
    text += path_;
    text += ": ";
  }
  text += message_;
  if (offset_) {
    text += " (at byte ";
    text += std::to_string(*offset_);
    text += ')';
  }
  return text;
}

}  // namespace onyx
