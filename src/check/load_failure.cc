#include "check/load_failure.h"

namespace onyx::check {

namespace {

bool mentions(const Status& status, std::string_view text) {
  return status.message().find(text) != std::string::npos;
}

}  // namespace

Diagnostic loadFailure(const Status& status) {
  const char* rule = "R1";
  if (status.code() == ErrorCode::kLimitExceeded &&
      (mentions(status, "nest") || mentions(status, "deep"))) {
    rule = "R4";
  } else if (mentions(status, "packed")) {
    rule = "R2";
  } else if (mentions(status, "is negative (") || mentions(status, "product of the dims")) {
    rule = "R63";
  }
  return Diagnostic::fromStatus(status, rule);
}

}  // namespace onyx::check
