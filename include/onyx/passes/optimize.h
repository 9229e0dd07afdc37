// onyx/passes/optimize.h — simplifying a model: the same meaning, fewer nodes.
//
//   onyx::OptimizeOptions options;                 // the default passes
//   onyx::Result<onyx::OptimizeReport> report = onyx::optimize(model, options);
//
// The result is deterministic: the same model and options give the same model (and bytes)
// on every run; optimising an optimised model changes nothing.
#pragma once

#include <string>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/passes/pass.h"
#include "onyx/passes/pass_manager.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct OptimizeOptions {
  /// Pass names (registeredPasses()), run in this order each round; empty: the default list.
  std::vector<std::string> passes;
  /// PassContext::aggressive.
  bool aggressive = false;
  /// Round cap and verification after each pass (PassManagerOptions).
  PassManagerOptions manager;
  /// For passes that fold constants: runs a node as the evaluator does. Not owned; null: no
  /// folding. The evaluator's side provides it, since this layer does not link the evaluator.
  NodeEvaluator* node_evaluator = nullptr;
  /// PassContext::fold_limit: the bytes a folded node may add per output.
  size_t fold_limit = PassContext().fold_limit;
  /// PassContext::constant_initializers: initializers listed as graph inputs are constants.
  bool constant_initializers = false;
};

using OptimizeReport = PassManagerReport;

/// The names of the default passes, in order.
std::vector<std::string> defaultPassNames();

/// Runs the passes to a fixed point. Errors: an unknown pass name (before anything changes),
/// else the first pass's error.
Result<OptimizeReport> optimize(Model& model, const OptimizeOptions& options = {});

}  // namespace onyx

#pragma GCC visibility pop
