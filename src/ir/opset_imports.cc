#include "onyx/ir/opset_imports.h"
#include "onyx/ir/editor.h"

namespace onyx {

std::string_view canonicalDomain(std::string_view domain) {
  return domain == kDefaultDomainAlias ? std::string_view() : domain;
}

bool isDefaultDomain(const Node& node) { return canonicalDomain(node.domainOrDefault()).empty(); }

bool isStandardOperator(const Node& node, std::string_view op_type) {
  if (node.opType() != op_type || !isDefaultDomain(node) || node.rare().overload.has_value()) {
    return false;
  }
  for (const Attribute* attribute : node.attributes) {
    if (attribute->isReference()) return false;
  }
  return true;
}

std::string_view domainLabel(std::string_view domain) {
  return domain.empty() ? kDefaultDomainAlias : domain;
}

OpsetImports::OpsetImports(std::span<const OperatorSetId> list) {
  for (const OperatorSetId& import : list) {
    std::string_view domain = canonicalDomain(import.domain.value_or(std::string_view()));
    int64_t version = import.version.value_or(0);
    bool seen = false;
    for (Entry& entry : entries_) {
      if (entry.domain != domain) continue;
      entry.version = version;  // the last entry binds
      seen = true;
    }
    if (!seen) entries_.push_back({domain, version});
  }
}

std::optional<int64_t> OpsetImports::versionOf(std::string_view domain) const {
  std::string_view wanted = canonicalDomain(domain);
  for (const Entry& entry : entries_) {
    if (entry.domain == wanted) return entry.version;
  }
  return std::nullopt;
}

void GraphEditor::setImportedVersion(ArenaList<OperatorSetId>& list, std::string_view domain,
                                     int64_t version) const {
  Arena& arena = *arena_;
  OperatorSetId* binding = nullptr;
  for (OperatorSetId& import : list) {
    if (canonicalDomain(import.domain.value_or(std::string_view())) == canonicalDomain(domain)) {
      binding = &import;
    }
  }
  if (binding == nullptr) {
    binding = &list.emplace_back(arena);
    binding->domain = arena.copy(domain);
  }
  binding->version = version;
}

}  // namespace onyx
