#include "onyx/ir/attribute.h"

namespace onyx {

const AttributeRareFields Attribute::kNone{};

AttributeKind Attribute::kind() const {
  if (type.has_value()) return static_cast<AttributeKind>(*type);
  // Before IR 2 the type was not written; the one field that is set says it.
  if (f) return AttributeKind::kFloat;
  if (i) return AttributeKind::kInt;
  if (s) return AttributeKind::kString;
  if (t != nullptr) return AttributeKind::kTensor;
  if (g != nullptr) return AttributeKind::kGraph;
  if (!floats.empty()) return AttributeKind::kFloats;
  if (!ints.empty()) return AttributeKind::kInts;
  if (rare_fields == nullptr) return AttributeKind::kUndefined;
  const AttributeRareFields& more = *rare_fields;
  if (more.sparse_tensor != nullptr) return AttributeKind::kSparseTensor;
  if (more.tp != nullptr) return AttributeKind::kTypeProto;
  if (!more.strings.empty()) return AttributeKind::kStrings;
  if (!more.tensors.empty()) return AttributeKind::kTensors;
  if (!more.graphs.empty()) return AttributeKind::kGraphs;
  if (!more.sparse_tensors.empty()) return AttributeKind::kSparseTensors;
  if (!more.type_protos.empty()) return AttributeKind::kTypeProtos;
  return AttributeKind::kUndefined;
}

}  // namespace onyx
