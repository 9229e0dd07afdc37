#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace onyx::tool {

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)), enabled_(isatty(STDERR_FILENO) != 0) {}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fputc('\n', stderr);
}

void ProgressBar::update(uint64_t done, uint64_t total) {
  // Small writes finish before a bar could say anything useful.
  constexpr uint64_t kWorthShowing = uint64_t{32} << 20;
  if (!enabled_ || total < kWorthShowing) return;
  auto now = std::chrono::steady_clock::now();
  // Redraw at most ten times a second, and always at the end.
  if (drawn_ && done < total && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  int filled = static_cast<int>(static_cast<double>(done) / static_cast<double>(total) * kWidth);
  std::string bar(static_cast<size_t>(filled), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r%s [%s] %5.1f%%  %.0f / %.0f MiB", label_.c_str(), bar.c_str(),
               100.0 * static_cast<double>(done) / static_cast<double>(total),
               static_cast<double>(done) / 1048576.0, static_cast<double>(total) / 1048576.0);
  std::fflush(stderr);
}

}  // namespace onyx::tool
