#include "check/function_index.h"

#include "check/opset_imports.h"
#include "check/place.h"
#include "core/quote.h"
#include "onyx/ir/name_table.h"

namespace onyx::check {

size_t FunctionIndex::KeyHash::operator()(const Key& key) const {
  uint64_t hash = NameTable::hashName(key.name);
  hash = hash * 31 + NameTable::hashName(key.domain);
  hash = hash * 31 + NameTable::hashName(key.overload);
  return static_cast<size_t>(hash);
}

FunctionIndex::Key FunctionIndex::key(std::string_view domain, std::string_view name,
                                      std::string_view overload) const {
  return {canonicalDomain(domain), name, overloads_ ? overload : std::string_view()};
}

void FunctionIndex::build(const Model& model, bool overloads, Diagnostics& out) {
  overloads_ = overloads;
  by_key_.clear();
  for (size_t i = 0; i < model.functions.size(); ++i) {
    const Function* function = model.functions[i];
    if (function == nullptr) continue;
    Key id = key(function->domainOrEmpty(), function->nameOrEmpty(), function->overloadOrEmpty());
    auto [at, added] = by_key_.emplace(id, i);
    if (added) continue;
    std::string path;
    appendSegment(path, "functions", i, function->nameOrEmpty());
    std::string first;
    appendSegment(first, "functions", at->second, function->nameOrEmpty());
    std::string what = "domain " + quoted(id.domain) + ", name " + quoted(id.name);
    if (overloads_) what += ", overload " + quoted(id.overload);
    out.error("R92", path,
              "has the same id (" + what + ") as " + first +
                  "; a call could not tell which function it means");
  }
}

std::optional<size_t> FunctionIndex::find(std::string_view domain, std::string_view name,
                                          std::string_view overload) const {
  if (by_key_.empty()) return std::nullopt;
  auto at = by_key_.find(key(domain, name, overload));
  if (at == by_key_.end()) return std::nullopt;
  return at->second;
}

std::optional<size_t> FunctionIndex::callee(const Node& node) const {
  return find(node.domainOrDefault(), node.opType(),
              node.rare().overload.value_or(std::string_view()));
}

}  // namespace onyx::check
