// The pass manager: rounds of passes to a fixed point, with timing and verification.
#include "onyx/passes/pass_manager.h"

#include <string>

#include "onyx/core/quote.h"
#include "onyx/ir/verify.h"

namespace onyx {

namespace {

#ifdef ONYX_DEVELOPMENT_CHECKS
constexpr bool kAlwaysVerify = true;
#else
constexpr bool kAlwaysVerify = false;
#endif

}  // namespace

PassResult PassManagerReport::total() const {
  PassResult sum;
  for (const PassStats& stats : passes) sum += stats.changes;
  return sum;
}

Result<PassManagerReport> PassManager::run(Model& model, PassContext& context) const {
  PassManagerReport report;
  for (const auto& pass : passes_) {
    PassStats stats;
    stats.name = std::string(pass->name());
    report.passes.push_back(std::move(stats));
  }
  bool verify = options_.verify || kAlwaysVerify;
  for (size_t round = 1; round <= options_.max_rounds; ++round) {
    report.rounds = round;
    bool changed = false;
    for (size_t p = 0; p < passes_.size(); ++p) {
      Pass& pass = *passes_[p];
      PassStats& stats = report.passes[p];
      auto start = std::chrono::steady_clock::now();
      Result<PassResult> done = pass.run(model, context);
      stats.time += std::chrono::steady_clock::now() - start;
      ++stats.runs;
      if (!done) {
        return Status(done.status().code(),
                      "pass " + quoted(stats.name) + ": " + done.status().toString());
      }
      stats.changes += *done;
      if (!done->changed()) continue;
      changed = true;
      context.changed(pass.preserves());
      if (verify) {
        if (Status valid = verifiedStatus(verifyModel(model)); !valid) {
          return Status(ErrorCode::kInternal,
                        "after pass " + quoted(stats.name) +
                            " the graph is inconsistent: " + valid.toString());
        }
      }
    }
    if (!changed) return report;
  }
  report.reached_cap = true;
  return report;
}

}  // namespace onyx
