#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace onyx::tool {

ProgressBar::ProgressBar(std::string label, ProgressUnit unit)
    : label_(std::move(label)),
      unit_(unit),
      enabled_(isatty(STDERR_FILENO) != 0),
      started_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fputc('\n', stderr);
}

bool ProgressBar::worthShowing(uint64_t total, std::chrono::steady_clock::time_point now) const {
  if (drawn_) return true;
  if (unit_ == ProgressUnit::kBytes) {
    // Small writes finish before a bar could say anything useful.
    constexpr uint64_t kWorthShowing = uint64_t{32} << 20;
    return total >= kWorthShowing;
  }
  // A count says nothing of how long each item takes: wait until the work has lasted.
  return now - started_ >= std::chrono::milliseconds(500);
}

void ProgressBar::update(uint64_t done, uint64_t total) {
  if (!enabled_ || total == 0) return;
  auto now = std::chrono::steady_clock::now();
  if (!worthShowing(total, now)) return;
  // Redraw at most ten times a second, and always at the end.
  if (drawn_ && done < total && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  double fraction = static_cast<double>(done) / static_cast<double>(total);
  int filled = static_cast<int>(fraction * kWidth);
  std::string bar(static_cast<size_t>(filled), '#');
  bar.resize(kWidth, '.');
  if (unit_ == ProgressUnit::kBytes) {
    std::fprintf(stderr, "\r%s [%s] %5.1f%%  %.0f / %.0f MiB", label_.c_str(), bar.c_str(),
                 100.0 * fraction, static_cast<double>(done) / 1048576.0,
                 static_cast<double>(total) / 1048576.0);
  } else {
    std::fprintf(stderr, "\r%s [%s] %5.1f%%  %llu / %llu", label_.c_str(), bar.c_str(),
                 100.0 * fraction, static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total));
  }
  std::fflush(stderr);
}

}  // namespace onyx::tool
