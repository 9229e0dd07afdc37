#include "eval/engine/executors.h"

#include <utility>

namespace onyx::eval_internal {

Executors::Executors(const Model& model, const EvalOptions& options)
    : options_(options), plans_(model, options) {}

Executors::~Executors() = default;

Executors::Lease Executors::lease() {
  std::unique_ptr<Executor> executor;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      executor = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (executor == nullptr) executor = std::make_unique<Executor>(plans_, options_);
  return Lease(*this, std::move(executor));
}

void Executors::giveBack(std::unique_ptr<Executor> executor) {
  std::lock_guard<std::mutex> lock(mutex_);
  idle_.push_back(std::move(executor));
}

}  // namespace onyx::eval_internal
