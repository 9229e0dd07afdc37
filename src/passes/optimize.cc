// onyx::optimize: the named passes (or the default list) under a pass manager.
#include "onyx/passes/optimize.h"

namespace onyx {

std::vector<std::string> defaultPassNames() {
  std::vector<std::string> names;
  for (const PassInfo& info : registeredPasses()) {
    if (info.in_default_list) names.emplace_back(info.make()->name());
  }
  return names;
}

Result<OptimizeReport> optimize(Model& model, const OptimizeOptions& options) {
  PassManager manager(options.manager);
  std::vector<std::string> names = options.passes.empty() ? defaultPassNames() : options.passes;
  for (const std::string& name : names) {
    Result<std::unique_ptr<Pass>> pass = makePass(name);
    if (!pass) return pass.status();
    manager.add(std::move(*pass));
  }
  PassContext context;
  context.aggressive = options.aggressive;
  context.node_evaluator = options.node_evaluator;
  context.fold_limit = options.fold_limit;
  context.constant_initializers = options.constant_initializers;
  return manager.run(model, context);
}

}  // namespace onyx
