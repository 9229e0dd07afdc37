#include "eval/engine/executors.h"

#include <algorithm>
#include <utility>

namespace onyx::eval_internal {

Executors::Executors(const Model& model, const EvalOptions& options)
    : options_(options), plans_(model, options), threads_(configuredThreads(options)) {}

Executors::~Executors() = default;

Executors::Lease Executors::lease() {
  std::unique_ptr<Executor> executor;
  int grant = 1;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    grant = std::max(1, threads_ - granted_);
    granted_ += grant;
    auto fitting = std::find_if(idle_.begin(), idle_.end(), [grant](const auto& idle) {
      return idle->threads() == grant;
    });
    if (fitting == idle_.end() && !idle_.empty()) fitting = idle_.end() - 1;
    if (fitting != idle_.end()) {
      executor = std::move(*fitting);
      idle_.erase(fitting);
    }
  }
  if (executor == nullptr) executor = std::make_unique<Executor>(plans_, options_);
  if (executor->threads() != grant) executor->setThreads(grant);
  return Lease(*this, std::move(executor));
}

void Executors::giveBack(std::unique_ptr<Executor> executor) {
  std::lock_guard<std::mutex> lock(mutex_);
  granted_ -= executor->threads();
  idle_.push_back(std::move(executor));
}

}  // namespace onyx::eval_internal
