#include "onyx/ops/callee.h"

#include "onyx/ops/function_body.h"
#include "onyx/ops/registry.h"

namespace onyx {

CalleeResolver::CalleeResolver(const Model& model)
    : model_(model), overloads_(FunctionId::countsOverload(model.ir_version)) {
  for (size_t i = 0; i < model.functions.size(); ++i) {
    const Function* function = model.functions[i];
    if (function == nullptr) continue;
    auto [at, added] = by_id_.emplace(FunctionId::of(*function, overloads_), i);
    if (!added) repeated_.emplace_back(i, at->second);
  }
}

std::optional<size_t> CalleeResolver::localFunctionIndex(const Node& node) const {
  if (by_id_.empty()) return std::nullopt;
  auto found = by_id_.find(FunctionId::calledBy(node, overloads_));
  if (found == by_id_.end()) return std::nullopt;
  return found->second;
}

const Function* CalleeResolver::localFunction(const Node& node) const {
  std::optional<size_t> index = localFunctionIndex(node);
  return index ? model_.functions[*index] : nullptr;
}

Callee CalleeResolver::resolve(const Node& node, const OpsetImports& imports) const {
  Callee callee;
  std::string_view domain = node.domainOrDefault();
  callee.opset = imports.versionOf(domain);
  if (callee.opset) callee.schema = findSchema(domain, node.opType(), *callee.opset);
  if (callee.schema != nullptr) {
    callee.operator_body = hasFunctionBodyAt(*callee.schema, *callee.opset);
    return callee;
  }
  callee.function = localFunction(node);
  return callee;
}

}  // namespace onyx
