// onyx/ops/function_body.h — the function body of an operator the spec defines as a
// function, for one node.
//
// Some operators are defined by the spec in terms of others (Celu through Elu, Softmax
// through ReduceMax, Exp, ReduceSum and Div, ...). Their schemas carry the definition
// (OpSchema::function_bodies or OpSchema::build_function_body, docs/ops.md): a fixed body
// in the ONNX text syntax, or a builder that writes the body for a node, because the body
// depends on the node's attributes, on which optional inputs and outputs it has, or on its
// input element types. functionBodyFor() gives the body a node calls, parsed, for the
// inliner (onyx/passes/inline_functions.h) and for whatever reasons about an operator
// through its definition.
//
// A body is chosen the way onnx chooses it: the fixed body with the highest opset not above
// the version the node's domain is imported at (a body written against opset 18 stands for
// the operator at 18, 19, ...); the builder writes the body for that version itself. The
// body's import of the operator's domain is that version, so a body inlined where the node
// was needs no other version of the domain. Nothing is cached: a fixed body is parsed on
// every call (4 µs for Softsign, 36 µs for AffineGrid; onyx keeps no process-wide state).
// Thread-safe: the schemas are constant and the node is only read.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "onyx/core/status.h"
#include "onyx/ir/function.h"
#include "onyx/ir/model.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ops/op_schema.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// A value's type where the caller knows more than the value declares (inference's
/// answer), or null.
using ValueTypeOf = std::function<const Type*(const Value&)>;

/// What a builder (OpSchema::build_function_body) knows of the node it writes a body for.
struct FunctionBodyContext {
  const OpSchema& schema;
  const Node& node;
  /// The version of the node's domain imported where the node is.
  int64_t opset = 0;
  /// The opsets imported where the node is (the model's, or its function's), for bodies that
  /// use operators of another domain (FlexAttention, of ai.onnx.preview, uses ai.onnx's).
  const OpsetImports& imports;
  /// Where a value's type is known beyond its declaration (inference's answer); may be null.
  const ValueTypeOf* type_of = nullptr;

  /// The node's attribute `name` as given (null when the node leaves it out: the builder
  /// applies the schema's default itself).
  const Attribute* attribute(std::string_view name) const;
  std::optional<int64_t> intAttr(std::string_view name) const;
  std::optional<float> floatAttr(std::string_view name) const;
  OptString stringAttr(std::string_view name) const;
  /// Whether the node has input / output `index` and does not leave it out ("").
  bool hasInput(size_t index) const;
  bool hasOutput(size_t index) const;
  /// The element type of input `index` where its value's type (or initializer, or
  /// `type_of`) says it.
  std::optional<int32_t> inputElementType(size_t index) const;
  /// The declared type of input `index`, else `type_of`'s answer, or null.
  const Type* inputType(size_t index) const;
};

/// A parsed body: `model` owns it and holds nothing else.
struct FunctionBody {
  Model model;
  Function* function = nullptr;
};

/// Whether the schema has a body at some opset (fixed or built).
bool hasFunctionBody(const OpSchema& schema);

/// Whether a node bound to `schema` with its domain imported at `opset` has a body there: a
/// builder, or a fixed body with an opset not above `opset`. (A builder may still refuse a
/// particular node.)
bool hasFunctionBodyAt(const OpSchema& schema, int64_t opset);

/// The fixed body that stands for the operator at `opset`, or null.
const FunctionBodyText* fixedFunctionBodyAt(const OpSchema& schema, int64_t opset);

/// The body of `node`, which binds to `schema` with its domain imported at `opset`, parsed,
/// with its import of the node's domain at `opset`. `imports` are the opsets where the node
/// is. Errors: kNotFound when the schema has no body at `opset`; the builder's error when it
/// refuses the node (kUnsupported, saying why); kInternal when a body does not parse or does
/// not match its schema (a bug in onyx).
/// `type_of`, when given, answers for inputs whose type is not declared (a builder that
/// needs an input's element type asks).
Result<FunctionBody> functionBodyFor(const OpSchema& schema, const Node& node, int64_t opset,
                                     const OpsetImports& imports = OpsetImports(),
                                     const ValueTypeOf* type_of = nullptr);

/// The text of a body with nothing of a node: the fixed body at `opset` (kNotFound when there
/// is none; builders need a node).
Result<FunctionBody> parseFixedFunctionBody(const OpSchema& schema, int64_t opset);

}  // namespace onyx

#pragma GCC visibility pop
