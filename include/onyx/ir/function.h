// onyx/ir/function.h — FunctionProto in the IR: a model-local function.
//
// The body is a Graph used as a scope: its nodes, its value_info, and the function's
// inputs as values. The proto's own graph fields (name, initializers, ...) stay empty.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

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

  // Adding inputs and outputs: GraphEditor::addInput, addOutput.
  /// Removes input `index`; refused while its value has uses. O(inputs).
  Status removeInput(size_t index);
  /// Removes output `index`. O(outputs).
  void removeOutput(size_t index);
};

/// What names a model-local function, and what a node calling it must match (IR.md,
/// "Functions"): its domain ("" and "ai.onnx" are one, onyx/ir/opset_imports.h), its name
/// and, from IR 10, its overload. Views into the function's or the node's strings.
struct FunctionId {
  std::string_view domain;  // canonical: "" for the default domain
  std::string_view name;
  std::string_view overload;  // empty when the model's IR version does not count it
  bool operator==(const FunctionId&) const = default;

  /// Whether a model of `ir_version` counts the overload in the id: from IR 10, and when the
  /// version is absent (a model being built takes the current rules).
  static bool countsOverload(std::optional<int64_t> ir_version);
  static FunctionId of(const Function& function, bool overloads);
  /// The id of the function `node` calls, if it calls a model-local one.
  static FunctionId calledBy(const Node& node, bool overloads);
};

struct FunctionIdHash {
  size_t operator()(const FunctionId& id) const;
};

}  // namespace onyx

#pragma GCC visibility pop
