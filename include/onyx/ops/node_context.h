// onyx/ops/node_context.h — what every per-node function of an operator (its shape rule,
// its kernel) reads about the node: its signature, its opset, its attributes.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "onyx/ops/op_schema.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct Attribute;
struct Function;
struct Graph;
struct Node;
struct Tensor;

class NodeContext {
 public:
  NodeContext(const Node& node, const OpSchema& schema, int64_t opset)
      : node_(&node), schema_(&schema), opset_(opset) {}

  const Node& node() const { return *node_; }
  const OpSchema& schema() const { return *schema_; }
  /// The version of the node's domain the model imports.
  int64_t opset() const { return opset_; }

  // ---- attributes -----------------------------------------------------------------------
  // The node's attribute, else the schema's default; nullopt (null) when neither. Inside a
  // function body, an attribute reference (`ref_attr_name`) reads the calling node's
  // attribute, else the function's default.

  const Attribute* attribute(std::string_view name) const;
  std::optional<int64_t> intAttribute(std::string_view name) const;
  std::optional<float> floatAttribute(std::string_view name) const;
  std::optional<std::string_view> stringAttribute(std::string_view name) const;
  std::optional<std::vector<int64_t>> intsAttribute(std::string_view name) const;
  std::optional<std::vector<float>> floatsAttribute(std::string_view name) const;
  const Tensor* tensorAttribute(std::string_view name) const;
  const Graph* graphAttribute(std::string_view name) const;

  // ---- for the engine -------------------------------------------------------------------
  // Inside a function body: the calling node and the function.
  const Node* caller_ = nullptr;
  const Function* callee_ = nullptr;

 private:
  const AttributeSpec* defaultOf(std::string_view name, AttributeKind kind) const;

  const Node* node_;
  const OpSchema* schema_;
  int64_t opset_;
};

}  // namespace onyx

#pragma GCC visibility pop
