// A progress bar on stderr, drawn only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace onyx::tool {

/// What a bar counts: bytes (shown in MiB, drawn for large writes) or items (cases, runs;
/// drawn once the work has lasted long enough for a user to wonder).
enum class ProgressUnit { kBytes, kItems };

class ProgressBar {
 public:
  explicit ProgressBar(std::string label, ProgressUnit unit = ProgressUnit::kBytes);
  ~ProgressBar();
  void update(uint64_t done, uint64_t total);

 private:
  bool worthShowing(uint64_t total, std::chrono::steady_clock::time_point now) const;

  std::string label_;
  ProgressUnit unit_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace onyx::tool
