// onyx/text/printer.h — a model in the ONNX text syntax, and what that syntax cannot hold.
//
// The syntax is onnx's (docs/Syntax.md); where that document and onnx's parser differ, the
// printer writes what the parser reads (onnx/defs/parser.cc), so the text parses back to
// the same model wherever the syntax can say it. Where the binary model holds something the
// syntax has no words for (a node's doc_string, training_info, a field onyx does not know,
// a tensor list in an attribute, a NaN payload, ...) the printer writes a `# lost: PATH: ...`
// comment line before the statement that would have held it, and textLosses() lists the same
// places. Names print bare when they are identifiers and quoted otherwise; where the syntax
// allows no quotes (operator types, node attribute names, the name of a graph given as an
// attribute) a name that is not an identifier prints as a stand-in and is reported lost.
//
// Tensor data prints in full unless PrintOptions::elide_tensors_over says otherwise: the syntax
// has no elision, so an elided text is for reading only. Externally stored tensors print as
// their external reference (the ["location": ...] list), so external data need not be
// loaded. Floats print as the shortest text that reads back to the same bits.
//
// Whether an optional field is absent or set to its default is not always kept: onnx's parser
// sets some fields the binary may leave out (every node's domain, every graph's and tensor's
// name, every opset's domain), so such a field comes back set and empty. Proto2 readers treat
// both the same, and textLosses() does not count it. docs/text-syntax-printing.md lists the
// choices.
//
// Printing reads the model and never changes it; several threads may print one model.
#pragma once

#include <string>
#include <vector>

#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct PrintOptions {
  /// Write a `# lost: ...` comment line before each statement that holds something the
  /// syntax cannot say.
  bool loss_comments = true;
  /// Spaces per level of nesting.
  int indent = 2;
  /// A tensor of more elements than this prints its type, its shape and its first
  /// `elided_elements` elements, then `... N more`: readable, but no longer parseable.
  /// 0: every element (the default: the text parses back to the same model).
  uint64_t elide_tensors_over = 0;
  uint64_t elided_elements = 8;
};

/// One place in a model that the text syntax cannot hold.
struct TextLoss {
  std::string path;    // where, as in error messages: graph.node[3](conv1).doc_string
  std::string detail;  // what is lost, in a few words
};

/// The model in the text syntax: header, main graph, then its functions.
std::string printModel(const Model& model, const PrintOptions& options = {});
/// printModel(), appended to `out`; `losses`, when not null, receives what textLosses() would.
void printModel(const Model& model, std::string& out, const PrintOptions& options,
                std::vector<TextLoss>* losses);

/// Everything printModel() cannot write, in the order it meets it; empty when the text
/// holds the whole model. Walks the model without formatting tensor data.
std::vector<TextLoss> textLosses(const Model& model);

// Parts, for diagnostics. Each is printed as it would appear in a model, paths in losses
// starting at the part itself.

/// `name (inputs) => (outputs) <initializers, value_info> { nodes }`.
std::string printGraph(const Graph& graph, const PrintOptions& options = {});
/// `<header> name <attributes> (inputs) => (outputs) <value_info> { nodes }`.
std::string printFunction(const Function& function, const PrintOptions& options = {});
/// One node line, `[label] outputs = domain.op_type:overload <attributes> (inputs)`, without
/// the line break; a node holding graphs spans several lines.
std::string printNode(const Node& node, const PrintOptions& options = {});
/// `name: kind = value`.
std::string printAttribute(const Attribute& attribute, const PrintOptions& options = {});
/// `float[N,3]`, `seq(int64)`, `map(string, float)`, `optional(float[])`,
/// `sparse_tensor(float[10])`, `opaque(domain, name)`; `float` is a scalar and `float[]` a
/// tensor of unknown rank. A type the syntax cannot spell prints as `?`.
std::string printType(const Type& type);
/// A tensor literal: `float[2,2] name {1, 2, 3, 4}` or, stored externally,
/// `float[2,2] name = ["location": "w.bin", ...]`.
std::string printTensor(const Tensor& tensor, const PrintOptions& options = {});

}  // namespace onyx

#pragma GCC visibility pop
