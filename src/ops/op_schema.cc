// The queries on schemas that are not constexpr: attribute and constraint lookup, and whether
// a type fits a constraint.
#include "onyx/ops/op_schema.h"

#include <utility>

#include "onyx/ir/type.h"

namespace onyx {

std::vector<std::string_view> traitNames(OpTraits traits) {
  static constexpr std::pair<OpTraits, std::string_view> kNames[] = {
      {OpTraits::kCommutative, "commutative"},
      {OpTraits::kElementwise, "elementwise"},
      {OpTraits::kShapeOnly, "shape-only"},
      {OpTraits::kNondeterministic, "nondeterministic"},
      {OpTraits::kQuantization, "quantization"},
      {OpTraits::kReadsShape, "reads-shape"},
      {OpTraits::kUpdatesInPlace, "updates-in-place"},
  };
  std::vector<std::string_view> names;
  for (const auto& [flag, name] : kNames) {
    if (hasTraits(traits, flag)) names.push_back(name);
  }
  return names;
}

namespace {

// Element types of a TensorProto.DataType code; codes outside the bit set fit nothing.
bool hasElement(uint32_t bits, const std::optional<int32_t>& elem_type, bool unknown_fits) {
  if (!elem_type) return unknown_fits && bits != 0;
  int32_t code = *elem_type;
  return code > 0 && code < 32 && ((bits >> code) & 1u) != 0;
}

// Map key codes: STRING is 8, INT64 is 7.
constexpr int32_t kStringCode = 8;
constexpr int32_t kInt64Code = 7;

bool mapFits(const Type& map, uint32_t string_keyed, uint32_t int64_keyed) {
  uint32_t bits = string_keyed | int64_keyed;
  if (map.key_type == kStringCode) bits = string_keyed;
  if (map.key_type == kInt64Code) bits = int64_keyed;
  if (map.key_type && *map.key_type != kStringCode && *map.key_type != kInt64Code) return false;
  if (map.elem == nullptr || map.elem->kind == Type::Kind::kNone) return bits != 0;
  if (map.elem->kind != Type::Kind::kTensor) return false;
  return hasElement(bits, map.elem->elem_type, true);
}

}  // namespace

bool TypeSet::allows(const Type& type) const {
  switch (type.kind) {
    case Type::Kind::kNone: return true;
    case Type::Kind::kTensor: return hasElement(tensor, type.elem_type, true);
    case Type::Kind::kSequence: {
      const Type* elem = type.elem;
      if (elem == nullptr || elem->kind == Type::Kind::kNone) {
        return sequence != 0 || string_map_sequence != 0 || int64_map_sequence != 0;
      }
      if (elem->kind == Type::Kind::kTensor) return hasElement(sequence, elem->elem_type, true);
      if (elem->kind == Type::Kind::kMap) {
        return mapFits(*elem, string_map_sequence, int64_map_sequence);
      }
      return false;
    }
    case Type::Kind::kOptional: {
      const Type* elem = type.elem;
      if (elem == nullptr || elem->kind == Type::Kind::kNone) {
        return optional_tensor != 0 || optional_sequence != 0;
      }
      if (elem->kind == Type::Kind::kTensor) {
        return hasElement(optional_tensor, elem->elem_type, true);
      }
      if (elem->kind == Type::Kind::kSequence) {
        const Type* inner = elem->elem;
        if (inner == nullptr || inner->kind == Type::Kind::kNone) return optional_sequence != 0;
        return inner->kind == Type::Kind::kTensor &&
               hasElement(optional_sequence, inner->elem_type, true);
      }
      return false;
    }
    case Type::Kind::kMap: return mapFits(type, string_map, int64_map);
    case Type::Kind::kSparseTensor:
    case Type::Kind::kOpaque: return false;
  }
  return false;
}

const AttributeSpec* OpSchema::attribute(std::string_view name) const {
  // Sorted by name byte-wise (isWellFormed checks it at build time).
  const AttributeSpec* low = attributes.begin();
  const AttributeSpec* high = attributes.end();
  while (low < high) {
    const AttributeSpec* middle = low + (high - low) / 2;
    int order = std::string_view(middle->name).compare(name);
    if (order == 0) return middle;
    if (order < 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return nullptr;
}

const TypeConstraint* OpSchema::constraint(std::string_view name) const {
  for (const TypeConstraint& entry : constraints) {
    if (name == entry.name) return &entry;
  }
  return nullptr;
}

}  // namespace onyx
