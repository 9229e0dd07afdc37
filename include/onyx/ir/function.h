// onyx/ir/function.h — FunctionProto in the IR: a model-local function.
//
// The body is a Graph used as a scope: its nodes, its value_info, and the function's
// inputs as values. The proto's own graph fields (name, initializers, ...) stay empty.
#pragma once

#include <cstdint>
#include <optional>

#include "onyx/ir/attribute.h"
#include "onyx/ir/fields.h"
#include "onyx/ir/graph.h"

namespace onyx {

struct OperatorSetId {
  OptString domain;
  std::optional<int64_t> version;
  UnknownFields unknown;
};

struct Function {
  OptString name;
  ArenaList<Value*> inputs;  // defined in `body`; null for an input named ""
  ArenaList<Use*> outputs;   // uses with no user node, like graph outputs
  ArenaList<std::string_view> attribute;
  ArenaList<Attribute*> attribute_proto;
  Graph* body = nullptr;
  OptString doc_string;
  ArenaList<OperatorSetId> opset_import;
  OptString domain;
  OptString overload;
  ArenaList<StringStringEntry> metadata_props;
  UnknownFields unknown;

  std::string_view nameOrEmpty() const { return name.value_or(std::string_view()); }
};

}  // namespace onyx
