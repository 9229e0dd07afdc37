// onyx/ops/callee.h — what a node calls: one answer for the checker, inference, the evaluator
// and the inliner.
//
// A node names (domain, op_type, overload). Where it is (the model's graphs, or a function
// body), its domain is imported at some version (onyx/ir/opset_imports.h). It calls:
//   1. the standard operator of its domain at that version, when the registry has one;
//   2. else the model-local function whose FunctionId (onyx/ir/function.h) it names: the
//      canonical domain ("" and "ai.onnx" are one), the name and, from IR 10, the overload;
//   3. else nothing onyx knows: an unknown or custom operator.
// A standard operator comes before a model-local function of the same name: IR.md
// ("Functions") makes a model-local function "a default or fallback implementation of the
// corresponding operator" that a runtime may replace by its own, and onnx's shape inference
// looks at the schema first too. (The checker refuses a model-local function in a standard
// domain, R41; the other layers still call it when no standard operator has its name.)
// A standard operator the spec defines as a function may have a body at that version
// (onyx/ops/function_body.h): Callee::operator_body says so, and the caller decides between
// the body and a kernel.
//
// A CalleeResolver indexes a model's functions once (O(functions)); each lookup is a registry
// lookup and a hash lookup. It keeps pointers into the model: the model's functions must not
// change while it is used. Thread-safe for lookups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "onyx/ir/function.h"
#include "onyx/ir/model.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ops/op_schema.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// What a node calls; at most one of `schema` and `function` is set.
struct Callee {
  /// The standard operator's signature at the imported version.
  const OpSchema* schema = nullptr;
  /// The model-local function, when no standard operator takes precedence.
  const Function* function = nullptr;
  /// The version the node's domain is imported at where it is; nullopt when not imported.
  std::optional<int64_t> opset;
  /// `schema` has a function body at `opset` (a builder may still refuse the node).
  bool operator_body = false;

  bool found() const { return schema != nullptr || function != nullptr; }
};

class CalleeResolver {
 public:
  /// Indexes `model.functions` by FunctionId under the model's IR version. When two functions
  /// share an id the first keeps it (the checker reports the others, R92).
  explicit CalleeResolver(const Model& model);

  /// What `node` calls, its domain imported as `imports` say (the model's, or those of the
  /// function whose body holds the node).
  Callee resolve(const Node& node, const OpsetImports& imports) const;

  /// The model-local function with the id `node` names, or null. The node calls it unless a
  /// standard operator comes first (resolve()); call graphs between functions (recursion)
  /// are drawn with this.
  const Function* localFunction(const Node& node) const;
  /// Its position in `model.functions`.
  std::optional<size_t> localFunctionIndex(const Node& node) const;

  /// Whether the model's IR version counts the overload in a function's id (IR 10).
  bool countsOverload() const { return overloads_; }
  /// The functions whose id an earlier function has: (position, position of the first).
  const std::vector<std::pair<size_t, size_t>>& repeatedIds() const { return repeated_; }

 private:
  const Model& model_;
  bool overloads_ = true;
  std::unordered_map<FunctionId, size_t, FunctionIdHash> by_id_;
  std::vector<std::pair<size_t, size_t>> repeated_;
};

}  // namespace onyx

#pragma GCC visibility pop
