#include "onyx/check/checker.h"

#include "check/device_rules.h"
#include "check/function_rules.h"
#include "check/model_rules.h"
#include "check/training_rules.h"
#include "check/walker.h"

namespace onyx {

Diagnostics checkModel(const Model& model, const CheckOptions& options) {
  Diagnostics out;
  check::CheckContext context(model, options, out);
  check::checkModelFields(context);
  check::checkModelDevices(context);
  check::checkFunctionIds(context);

  check::Walker walker(context);
  if (model.graph != nullptr) {
    check::GraphPlace place;
    place.root = "graph";
    check::RootScope scope;
    scope.imports = &context.model_imports;
    walker.walk(*model.graph, place, check::GraphRole::kMain, scope);
  }
  check::checkTraining(context, walker);
  check::checkFunctions(context, walker);
  if (options.more_rules && !out.hasErrors()) options.more_rules(model, out);
  return out;
}

}  // namespace onyx
