// Internal: the parts of checkNodeSignature (node_signature.cc), one concern per file, and
// what they share: the node, the schema it binds to, and how messages name the operator and
// the places in the node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "check/node_signature.h"
#include "onyx/ops/op_schema.h"
#include "onyx/ops/signature_fit.h"

namespace onyx::check {

/// A node and the schema it binds to.
struct SignatureSite {
  const Node& node;
  const OpSchema& schema;
  std::string_view domain;  // canonical: "" for ai.onnx
  int64_t opset = 0;        // the version of `domain` the node's scope imports
  const NodeContext& context;
  const LazyPath& path;
  Diagnostics& out;
  /// How the node misfits the schema (onyx/ops/signature_fit.h), in misfitsOf's order.
  const std::vector<Misfit>& misfits;

  /// "Conv at opset 13", "LabelEncoder at ai.onnx.ml opset 2": the operator as the user
  /// imported it.
  std::string label() const;
  /// The node's path with `.input[i]`, `.output[i]`, `.attribute[a](name)` after it.
  std::string inputPath(size_t i) const;
  std::string outputPath(size_t i) const;
  std::string attributePath(size_t a) const;
};

/// "Conv at opset 13" for ai.onnx, "LabelEncoder at ai.onnx.ml opset 2" for other domains.
std::string operatorLabel(std::string_view op_type, std::string_view domain, int64_t opset);

/// "1 input", "2 inputs", "no inputs".
std::string countText(size_t count, std::string_view singular, std::string_view plural);

/// An attribute kind as AttributeProto spells it: "INT", "FLOATS", "GRAPH".
std::string attributeKindLabel(AttributeKind kind);

/// Where `count` sits among the accepted counts, in words: "2 or 3 inputs", "at least 1
/// input", "1 to 3 outputs".
std::string boundsText(size_t low, size_t high, std::string_view singular, std::string_view plural);

/// R43, R44, R45: the number of inputs and outputs, and "" only for optional parameters.
void checkArguments(const SignatureSite& site);
/// R47, R48, R49: attributes the schema declares, of the declared kind, required ones present.
void checkSchemaAttributes(const SignatureSite& site);
/// R51: the declared types of inputs and outputs fit the type constraints, and each type
/// variable binds to one type.
void checkTypeConstraints(const SignatureSite& site);
/// R52: the graphs of If, Loop, Scan and SequenceMap fit the node.
void checkControlFlowBodies(const SignatureSite& site);
/// R53: a call of a model-local function fits the function.
void checkFunctionCall(const Node& node, const Function& callee, const LazyPath& path,
                       Diagnostics& out);

}  // namespace onyx::check
