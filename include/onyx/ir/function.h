// onyx/ir/function.h — FunctionProto in the IR: a model-local function.
//
// The body is a Graph used as a scope: its nodes, its value_info, and the function's
// inputs as values. The proto's own graph fields (name, initializers, ...) stay empty.
#pragma once

#include <cstdint>
#include <optional>

#include "onyx/core/status.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/fields.h"
#include "onyx/ir/graph.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

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
  std::string_view domainOrEmpty() const { return domain.value_or(std::string_view()); }
  std::string_view overloadOrEmpty() const { return overload.value_or(std::string_view()); }

  /// Adds an input named `name`, defined in the body. Refused when the name is taken.
  /// O(1) plus isNameInScope.
  Result<Value*> addInput(Arena& arena, std::string_view input_name);
  /// Removes input `index`; refused while its value has uses. O(inputs).
  Status removeInput(size_t index);
  /// Makes `value` (a value of the body) an output. O(1).
  void addOutput(Arena& arena, Value* value);
  /// Removes output `index`. O(outputs).
  void removeOutput(size_t index);
};

/// A new function `domain.name` (with `overload`) with an empty body, not yet in a model
/// (Model::addFunction).
Function* newFunction(Arena& arena, std::string_view domain, std::string_view name,
                      std::string_view overload = {});

}  // namespace onyx

#pragma GCC visibility pop
