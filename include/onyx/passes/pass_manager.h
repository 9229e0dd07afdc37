// onyx/passes/pass_manager.h — running passes in rounds to a fixed point, and the passes
// onyx has, by name.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/passes/pass.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// What one pass did over all rounds.
struct PassStats {
  std::string name;
  size_t runs = 0;
  PassResult changes;
  std::chrono::nanoseconds time{0};
};

struct PassManagerReport {
  /// Rounds run; the last changed nothing unless `reached_cap`.
  size_t rounds = 0;
  /// The round cap stopped the manager while passes were still changing the model.
  bool reached_cap = false;
  /// One entry per pass, in the order they run.
  std::vector<PassStats> passes;

  PassResult total() const;
};

struct PassManagerOptions {
  /// Rounds at most. Every standard pass only shrinks the model or leaves it, so a fixed
  /// point comes within a few rounds; the cap guards against passes that undo each other.
  size_t max_rounds = 16;
  /// verifyModel after every pass that changed something (always on in a build with
  /// ONYX_DEVELOPMENT_CHECKS). A failure names the pass.
  bool verify = false;
};

/// Runs its passes in order, round after round, until a round changes nothing.
class PassManager {
 public:
  explicit PassManager(PassManagerOptions options = {}) : options_(options) {}

  void add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  std::span<const std::unique_ptr<Pass>> passes() const { return passes_; }

  /// Errors: the first pass error, or a failed verification (kInternal), naming the pass.
  Result<PassManagerReport> run(Model& model, PassContext& context) const;

 private:
  PassManagerOptions options_;
  std::vector<std::unique_ptr<Pass>> passes_;
};

/// A pass onyx has (its name and summary are the pass's own).
struct PassInfo {
  std::unique_ptr<Pass> (*make)();
  /// Whether optimize() runs it when no list is given.
  bool in_default_list;
};

/// Every pass, in the order the default list runs them, then the others.
std::span<const PassInfo> registeredPasses();

/// The pass named `name`; an error listing the names when there is none.
Result<std::unique_ptr<Pass>> makePass(std::string_view name);

}  // namespace onyx

#pragma GCC visibility pop
