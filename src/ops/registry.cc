// The standard operator sets: the index of every op file (operator_index.inc) and a hash
// table over it, both built at compile time.
#include "onyx/ops/registry.h"

#include <array>
#include <cstddef>

namespace onyx {

namespace ops {
#define ONYX_OPERATOR(space, symbol, domain, name) \
  namespace space {                                \
  extern const Operator symbol;                    \
  }
#include "ops/operator_index.inc"
#undef ONYX_OPERATOR
}  // namespace ops

namespace {

constexpr OperatorSetInfo kOperatorSets[] = {
    {kOnnxDomain, 1, 28, 27},          {kMlDomain, 1, 5, 5},
    {kTrainingDomain, 1, 1, 1},        {kPreviewDomain, 1, 1, 1},
    {kPreviewTrainingDomain, 1, 1, 1},
};
constexpr size_t kDomainCount = sizeof(kOperatorSets) / sizeof(kOperatorSets[0]);

struct IndexEntry {
  std::string_view domain;
  std::string_view name;
  const Operator* op;
};

constexpr IndexEntry kIndex[] = {
#define ONYX_OPERATOR(space, symbol, domain, name) {domain, name, &ops::space::symbol},
#include "ops/operator_index.inc"
#undef ONYX_OPERATOR
};
constexpr size_t kOperatorCount = sizeof(kIndex) / sizeof(kIndex[0]);

constexpr std::array<const Operator*, kOperatorCount> kAllOperators = [] {
  std::array<const Operator*, kOperatorCount> all{};
  for (size_t i = 0; i < kOperatorCount; ++i) all[i] = kIndex[i].op;
  return all;
}();

// A domain is a small number (its row in kOperatorSets), mixed into the name's hash.
constexpr int domainNumber(std::string_view domain) {
  if (domain.empty()) return 0;
  for (size_t i = 0; i < kDomainCount; ++i) {
    if (domain == kOperatorSets[i].domain) return static_cast<int>(i);
  }
  return -1;
}

constexpr uint32_t hashKey(int domain, std::string_view name) {
  uint32_t hash = 2166136261u ^ static_cast<uint32_t>(domain) * 0x9E3779B1u;
  for (char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  return hash;
}

// Open addressing with linear probing, at most half full; a slot holds an index + 1.
constexpr size_t kSlotCount = [] {
  size_t slots = 16;
  while (slots < 2 * kOperatorCount) slots *= 2;
  return slots;
}();

constexpr std::array<uint16_t, kSlotCount> kSlots = [] {
  std::array<uint16_t, kSlotCount> slots{};
  for (size_t i = 0; i < kOperatorCount; ++i) {
    size_t slot = hashKey(domainNumber(kIndex[i].domain), kIndex[i].name) & (kSlotCount - 1);
    while (slots[slot] != 0) slot = (slot + 1) & (kSlotCount - 1);
    slots[slot] = static_cast<uint16_t>(i + 1);
  }
  return slots;
}();

static_assert(kOperatorCount < 0xFFFF);

}  // namespace

std::span<const OperatorSetInfo> standardOperatorSets() { return kOperatorSets; }

const OperatorSetInfo* findOperatorSet(std::string_view domain) {
  int number = domainNumber(domain);
  return number < 0 ? nullptr : &kOperatorSets[number];
}

const Operator* findOperator(std::string_view domain, std::string_view op_type) {
  int number = domainNumber(domain);
  if (number < 0) return nullptr;
  std::string_view canonical = kOperatorSets[number].domain;
  for (size_t slot = hashKey(number, op_type) & (kSlotCount - 1);;
       slot = (slot + 1) & (kSlotCount - 1)) {
    uint16_t entry = kSlots[slot];
    if (entry == 0) return nullptr;
    const IndexEntry& candidate = kIndex[entry - 1];
    if (candidate.name == op_type && candidate.domain == canonical) return candidate.op;
  }
}

const OpSchema* findSchema(std::string_view domain, std::string_view op_type,
                           int64_t opset_version) {
  const Operator* op = findOperator(domain, op_type);
  return op ? op->at(opset_version) : nullptr;
}

OpTraits traitsOf(std::string_view domain, std::string_view op_type, int64_t opset_version) {
  const OpSchema* schema = findSchema(domain, op_type, opset_version);
  return schema != nullptr ? schema->traits : OpTraits::kNone;
}

OpTraits traitsOf(const Node& node, const GraphScope& scope) {
  if (node.rare().overload.has_value()) return OpTraits::kNone;
  std::string_view domain = node.domainOrDefault();
  return traitsOf(domain, node.opType(), scope.opset(domain));
}

std::span<const Operator* const> allOperators() { return kAllOperators; }

std::vector<ResolvedOperator> operatorsAt(std::string_view domain, int64_t opset_version) {
  std::vector<ResolvedOperator> found;
  const OperatorSetInfo* set = findOperatorSet(domain);
  if (set == nullptr) return found;
  std::string_view spelled = set->domain;
  for (const IndexEntry& entry : kIndex) {
    if (entry.domain != spelled) continue;
    if (const OpSchema* schema = entry.op->at(opset_version)) found.push_back({entry.op, schema});
  }
  return found;
}

}  // namespace onyx
