// onyx/text/parser.h — the ONNX text syntax (onnx's docs/Syntax.md) into the IR.
//
// The syntax accepted is what onnx's own parser accepts (onnx/defs/parser.cc), and a text
// becomes the very fields that parser fills: a model parsed here serializes to the bytes
// onnx's parser followed by protobuf serialization would give. The few places where onyx
// accepts more, or refuses what onnx lets through only by a bug, are listed in
// docs/text-syntax-reading.md.
//
// Errors are for people: `line L, column C: expected <what>, found <what>`, with the byte
// offset in Status::offset(). Syntax errors are kMalformed; nesting past
// TextParseOptions::max_depth and tensors whose dims multiply past 2^63 are kLimitExceeded.
// No input crashes, hangs or allocates more than a small multiple of its own size.
//
// The returned Model owns everything it points into; the text may be freed after the call.
#pragma once

#include <string>
#include <string_view>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct TextParseOptions {
  /// Graphs nested in attributes and types nested in types, counted together, deeper than
  /// this are refused (the main graph counts as one level). At most 200.
  int max_depth = 100;
  /// The folder external data locations resolve against: when set, every external tensor's
  /// file is mapped and checked as loadModel does; when empty, external tensors are kept as
  /// written and no file is touched.
  std::string folder;
};

/// A whole model: `<header>? graph function*`.
Result<Model> parseText(std::string_view text, const TextParseOptions& options = {});

/// A lone graph (`name (inputs) => (outputs) <initializers> { nodes }`), as the graph of an
/// otherwise empty Model (no IR version, no opset imports).
Result<Model> parseGraphText(std::string_view text, const TextParseOptions& options = {});

/// A node list (`{ node* }`), as the nodes of an otherwise empty graph of an empty Model.
Result<Model> parseNodesText(std::string_view text, const TextParseOptions& options = {});

/// A lone function (`<header>? name <attributes>? (inputs) => (outputs) { nodes }`), as the
/// only function of an otherwise empty Model.
Result<Model> parseFunctionText(std::string_view text, const TextParseOptions& options = {});

/// Functions one after the other (`function*`), as the functions of an otherwise empty Model
/// in the order written (the rewrite rules of onyx/passes/pattern.h are written so).
Result<Model> parseFunctionsText(std::string_view text, const TextParseOptions& options = {});

/// A type (`float[N,3]`, `seq(int64[])`, `map(string, float)`, ...), allocated in `owner`,
/// which keeps what it points into alive.
Result<Type*> parseTypeText(std::string_view text, Model& owner,
                            const TextParseOptions& options = {});

}  // namespace onyx

#pragma GCC visibility pop
