// The rules for onnx-data.proto values, R103–R105.
#include "onyx/check/test_value_rules.h"

#include <limits>
#include <optional>
#include <unordered_set>

#include "check/value_rules.h"
#include "check/value_text.h"
#include "onyx/core/element_type.h"

namespace onyx {

namespace {

using check::countOf;
using check::elementTypeLabel;
using check::indexedSegment;

// SequenceProto.DataType and OptionalProto.DataType share their numbers.
enum class ElemKind : int32_t {
  kUndefined = 0,
  kTensor = 1,
  kSparseTensor = 2,
  kSequence = 3,
  kMap = 4,
  kOptional = 5,
};

// An element kind that is absent or not one of the above: nothing to match values against.
constexpr int32_t kNoKind = -1;

std::string_view elemKindName(int64_t code) {
  switch (code) {
    case 0: return "UNDEFINED";
    case 1: return "TENSOR";
    case 2: return "SPARSE_TENSOR";
    case 3: return "SEQUENCE";
    case 4: return "MAP";
    case 5: return "OPTIONAL";
    default: return "UNKNOWN";
  }
}

class TestValueChecker {
 public:
  explicit TestValueChecker(Diagnostics& out) : out_(out) {}

  void tensor(const Tensor& value, const std::string& path) {
    check::checkTensor(value, context_, path, out_);
  }
  void sparse(const SparseTensor& value, const std::string& path) {
    check::checkSparseTensor(value, context_, path, out_);
  }
  void sequence(const SequenceValue& value, const std::string& path);
  void map(const MapValue& value, const std::string& path);
  void optional(const OptionalValue& value, const std::string& path);

 private:
  // A list of the sequence, its element kind, and how an element's own type is told.
  template <class T, class TypeOf, class Check>
  void elements(const ArenaList<T*>& list, std::string_view field, ElemKind kind, int32_t elem_type,
                const std::string& path, TypeOf type_of, Check check);

  check::ValueContext context_;  // no model: no IR version, no folder
  Diagnostics& out_;
};

std::string_view nameOf(const Tensor* t) { return t->nameOrEmpty(); }
std::string_view nameOf(const SparseTensor* t) {
  return t->values != nullptr ? t->values->nameOrEmpty() : std::string_view();
}
std::string_view nameOf(const SequenceValue* v) { return v->name.value_or(""); }
std::string_view nameOf(const MapValue* v) { return v->name.value_or(""); }
std::string_view nameOf(const OptionalValue* v) { return v->name.value_or(""); }

template <class T, class TypeOf, class Check>
void TestValueChecker::elements(const ArenaList<T*>& list, std::string_view field, ElemKind kind,
                                int32_t elem_type, const std::string& path, TypeOf type_of,
                                Check check) {
  if (list.empty()) return;
  if (elem_type != kNoKind && elem_type != static_cast<int32_t>(kind)) {
    out_.error("R103", path + "." + std::string(field),
               "elem_type is " + std::string(elemKindName(elem_type)) + " but " +
                   std::string(field) + " holds " + countOf(list.size(), "element", "elements") +
                   "; a sequence holds only the elements its elem_type names");
  }
  // Homogeneous: every element has the first one's type. Report the first that differs.
  const std::string first_type = type_of(*list[0]);
  size_t differing = 0;
  size_t first_differing = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string element_path = path + indexedSegment(field, i, nameOf(list[i]));
    check(*list[i], element_path);
    if (i > 0 && type_of(*list[i]) != first_type && differing++ == 0) first_differing = i;
  }
  if (differing > 0) {
    std::string message = std::string(field) + "[" + std::to_string(first_differing) + "] is " +
                          type_of(*list[first_differing]) + " while " + std::string(field) +
                          "[0] is " + first_type + "; the elements of a sequence have one type";
    if (differing > 1) message += " (" + std::to_string(differing) + " elements differ)";
    out_.error("R103", path + indexedSegment(field, first_differing, nameOf(list[first_differing])),
               std::move(message));
  }
}

void TestValueChecker::sequence(const SequenceValue& value, const std::string& path) {
  if (!value.elem_type) {
    out_.error("R103", path + ".elem_type",
               "elem_type is missing; a sequence must say what its elements are");
  } else if (*value.elem_type == 0) {
    out_.error("R103", path + ".elem_type",
               "elem_type is UNDEFINED; a sequence must say what its elements are");
  } else if (*value.elem_type < 1 || *value.elem_type > 5) {
    out_.error("R103", path + ".elem_type",
               "elem_type " + std::to_string(*value.elem_type) +
                   " is not a SequenceProto data type (1 to 5)");
  }
  // Only a valid kind is matched against the lists.
  const int32_t elem_type = value.elem_type.value_or(0) >= 1 && value.elem_type.value_or(0) <= 5
                                ? *value.elem_type
                                : kNoKind;
  auto tensorType = [](const Tensor& t) {
    const std::string label = elementTypeLabel(t.data_type.value_or(0));
    return std::string(check::article(label)) + " " + label + " tensor";
  };
  auto sparseType = [](const SparseTensor& t) {
    return "a sparse " +
           elementTypeLabel(t.values != nullptr ? t.values->data_type.value_or(0) : 0) + " tensor";
  };
  auto sequenceType = [](const SequenceValue& v) {
    return "a sequence of " + std::string(elemKindName(v.elem_type.value_or(0)));
  };
  auto mapType = [](const MapValue& v) {
    return "a map with " + elementTypeLabel(v.key_type.value_or(0)) + " keys";
  };
  auto optionalType = [](const OptionalValue& v) {
    return "an optional " + std::string(elemKindName(v.elem_type.value_or(0)));
  };
  elements(value.tensor_values, "tensor_values", ElemKind::kTensor, elem_type, path, tensorType,
           [&](const Tensor& t, const std::string& p) { tensor(t, p); });
  elements(value.sparse_tensor_values, "sparse_tensor_values", ElemKind::kSparseTensor, elem_type,
           path, sparseType, [&](const SparseTensor& t, const std::string& p) { sparse(t, p); });
  elements(value.sequence_values, "sequence_values", ElemKind::kSequence, elem_type, path,
           sequenceType, [&](const SequenceValue& v, const std::string& p) { sequence(v, p); });
  elements(value.map_values, "map_values", ElemKind::kMap, elem_type, path, mapType,
           [&](const MapValue& v, const std::string& p) { map(v, p); });
  elements(value.optional_values, "optional_values", ElemKind::kOptional, elem_type, path,
           optionalType, [&](const OptionalValue& v, const std::string& p) { optional(v, p); });
}

// The range of an integer key type, as int64 (UINT64 keys are stored as int64 bit patterns,
// so every int64 is one).
std::optional<std::pair<int64_t, int64_t>> keyRange(ElementType type) {
  switch (type) {
    case ElementType::kInt8: return std::pair<int64_t, int64_t>{-128, 127};
    case ElementType::kInt16: return std::pair<int64_t, int64_t>{-32768, 32767};
    case ElementType::kInt32:
      return std::pair<int64_t, int64_t>{std::numeric_limits<int32_t>::min(),
                                         std::numeric_limits<int32_t>::max()};
    case ElementType::kUint8: return std::pair<int64_t, int64_t>{0, 255};
    case ElementType::kUint16: return std::pair<int64_t, int64_t>{0, 65535};
    case ElementType::kUint32:
      return std::pair<int64_t, int64_t>{0, std::numeric_limits<uint32_t>::max()};
    default: return std::nullopt;  // INT64, UINT64: every stored value fits
  }
}

bool isIntegerKey(ElementType type) {
  switch (type) {
    case ElementType::kInt8:
    case ElementType::kInt16:
    case ElementType::kInt32:
    case ElementType::kInt64:
    case ElementType::kUint8:
    case ElementType::kUint16:
    case ElementType::kUint32:
    case ElementType::kUint64: return true;
    default: return false;
  }
}

void TestValueChecker::map(const MapValue& value, const std::string& path) {
  const size_t int_keys = value.keys.size();
  const size_t string_keys = value.string_keys.size();
  std::optional<ElementType> key_type;
  if (!value.key_type) {
    out_.error("R104", path + ".key_type", "key_type is missing; a map must say its key type");
  } else if (const auto type = static_cast<ElementType>(*value.key_type);
             !isIntegerKey(type) && type != ElementType::kString) {
    out_.error("R104", path + ".key_type",
               "key_type is " + elementTypeLabel(*value.key_type) +
                   "; map keys are integers (int8 to int64, uint8 to uint64) or strings");
  } else {
    key_type = type;
  }
  if (int_keys > 0 && string_keys > 0) {
    out_.error("R104", path, "the map has keys in both keys and string_keys; it uses one of them");
  } else if (key_type == ElementType::kString && int_keys > 0) {
    out_.error("R104", path + ".keys",
               "key_type is string but the keys are in keys; string keys go in string_keys");
  } else if (key_type && *key_type != ElementType::kString && string_keys > 0) {
    out_.error("R104", path + ".string_keys",
               "key_type is " + elementTypeLabel(*value.key_type) +
                   " but the keys are in string_keys; integer keys go in keys");
  }
  if (key_type && int_keys > 0) {
    if (auto range = keyRange(*key_type)) {
      size_t outside = 0;
      size_t first = 0;
      for (size_t i = 0; i < int_keys; ++i) {
        if ((value.keys[i] < range->first || value.keys[i] > range->second) && outside++ == 0) {
          first = i;
        }
      }
      if (outside > 0) {
        std::string message = "keys[" + std::to_string(first) + "] is " +
                              std::to_string(value.keys[first]) + ", outside the range of " +
                              elementTypeLabel(*value.key_type);
        if (outside > 1) message += " (" + std::to_string(outside) + " keys are outside it)";
        out_.error("R104", path + ".keys[" + std::to_string(first) + "]", std::move(message));
      }
    }
  }
  // Repeated keys make lookups ambiguous; the proto does not forbid them outright.
  if (int_keys > 1) {
    std::unordered_set<int64_t> seen;
    for (size_t i = 0; i < int_keys; ++i) {
      if (!seen.insert(value.keys[i]).second) {
        out_.warning("R104", path + ".keys[" + std::to_string(i) + "]",
                     "key " + std::to_string(value.keys[i]) + " appears more than once");
        break;
      }
    }
  } else if (string_keys > 1) {
    std::unordered_set<std::string_view> seen;
    for (size_t i = 0; i < string_keys; ++i) {
      if (!seen.insert(value.string_keys[i]).second) {
        out_.warning("R104", path + ".string_keys[" + std::to_string(i) + "]",
                     "key " + quoted(value.string_keys[i]) + " appears more than once");
        break;
      }
    }
  }

  if (value.values == nullptr) {
    out_.error("R104", path + ".values", "values is missing; a map keeps its values there");
    return;
  }
  const SequenceValue& values = *value.values;
  sequence(values, path + ".values");
  const int32_t kind = values.elem_type.value_or(0);
  if (kind == static_cast<int32_t>(ElemKind::kOptional)) {
    out_.error("R104", path + ".values.elem_type",
               "the map's values are OPTIONAL; map values are tensors, sparse tensors, "
               "sequences or maps");
  }
  const size_t value_count = values.tensor_values.size() + values.sparse_tensor_values.size() +
                             values.sequence_values.size() + values.map_values.size() +
                             values.optional_values.size();
  const size_t key_count = int_keys + string_keys;
  if (value_count != key_count) {
    out_.error("R104", path,
               "the map has " + countOf(key_count, "key", "keys") + " but " +
                   countOf(value_count, "value", "values") + "; each key has one value");
  }
}

void TestValueChecker::optional(const OptionalValue& value, const std::string& path) {
  const bool known = value.elem_type && *value.elem_type >= 0 && *value.elem_type <= 5;
  if (!value.elem_type) {
    out_.error("R105", path + ".elem_type",
               "elem_type is missing; an optional must say what it may hold");
  } else if (!known) {
    out_.error("R105", path + ".elem_type",
               "elem_type " + std::to_string(*value.elem_type) +
                   " is not an OptionalProto data type (0 to 5)");
  }
  const int32_t elem_type = known ? *value.elem_type : kNoKind;
  struct Held {
    bool set;
    ElemKind kind;
    std::string_view field;
  };
  const Held held[] = {
      {value.tensor_value != nullptr, ElemKind::kTensor, "tensor_value"},
      {value.sparse_tensor_value != nullptr, ElemKind::kSparseTensor, "sparse_tensor_value"},
      {value.sequence_value != nullptr, ElemKind::kSequence, "sequence_value"},
      {value.map_value != nullptr, ElemKind::kMap, "map_value"},
      {value.optional_value != nullptr, ElemKind::kOptional, "optional_value"},
  };
  std::string fields;
  size_t count = 0;
  for (const Held& h : held) {
    if (!h.set) continue;
    fields += count++ == 0 ? "" : " and ";
    fields += h.field;
    if (elem_type != kNoKind && elem_type != static_cast<int32_t>(h.kind)) {
      out_.error("R105", path + "." + std::string(h.field),
                 "elem_type is " + std::string(elemKindName(elem_type)) +
                     " but the optional holds a value in " + std::string(h.field));
    }
  }
  if (count > 1) {
    out_.error("R105", path,
               "the optional holds " + std::to_string(count) + " values (" + fields +
                   "); it holds one, or none when empty");
  }
  if (value.tensor_value) tensor(*value.tensor_value, path + ".tensor_value");
  if (value.sparse_tensor_value) sparse(*value.sparse_tensor_value, path + ".sparse_tensor_value");
  if (value.sequence_value) sequence(*value.sequence_value, path + ".sequence_value");
  if (value.map_value) map(*value.map_value, path + ".map_value");
  if (value.optional_value) optional(*value.optional_value, path + ".optional_value");
}

std::string_view kindPath(TestValueKind kind) {
  switch (kind) {
    case TestValueKind::kTensor: return "tensor";
    case TestValueKind::kSparseTensor: return "sparse_tensor";
    case TestValueKind::kSequence: return "sequence";
    case TestValueKind::kMap: return "map";
    case TestValueKind::kOptional: return "optional";
  }
  return "value";
}

}  // namespace

Diagnostics checkTestValue(const TestValue& value, const std::string& path) {
  Diagnostics out;
  TestValueChecker checker(out);
  const std::string root = path.empty() ? std::string(kindPath(value.kind())) : path;
  switch (value.kind()) {
    case TestValueKind::kTensor:
      if (value.tensor() != nullptr) checker.tensor(*value.tensor(), root);
      break;
    case TestValueKind::kSparseTensor:
      if (value.sparseTensor() != nullptr) checker.sparse(*value.sparseTensor(), root);
      break;
    case TestValueKind::kSequence:
      if (value.sequence() != nullptr) checker.sequence(*value.sequence(), root);
      break;
    case TestValueKind::kMap:
      if (value.map() != nullptr) checker.map(*value.map(), root);
      break;
    case TestValueKind::kOptional:
      if (value.optional() != nullptr) checker.optional(*value.optional(), root);
      break;
  }
  return out;
}

}  // namespace onyx
