// Internal: the ONNX text syntax transcoded to protobuf wire bytes.
//
// Why bytes and not the IR directly: onyx's decoder already turns bytes into the IR with
// every rule of names and scopes (forward references, duplicate definitions, captures by
// subgraphs, value_info binding) and every check. Feeding it what the text means, encoded as
// protobuf would encode the ModelProto onnx's parser fills, gives a Model that is exactly the
// one loading onnx's output would give, and keeps one implementation of those rules. The cost
// is a second pass over the bytes, which is linear and small next to reading the text.
//
// Every message is written with its fields in field-number order, as protobuf writes them;
// fields the text gives in another order (a graph's nodes come last in the text and first in
// GraphProto) go through side buffers. The grammar follows onnx/defs/parser.cc; comments mark
// where this parser deliberately differs.
//
// transcoder.cc holds the model, function, graph, node and attribute rules;
// transcode_types.cc the types, tensor constants and the names of both.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/attribute.h"
#include "onyx/text/parser.h"
#include "text/scanner.h"
#include "text/wire_buffer.h"

namespace onyx::text {

class Transcoder {
 public:
  Transcoder(std::string_view text, const TextParseOptions& options)
      : text_(text), s_(text), options_(options) {}

  // Each entry point checks the text is UTF-8, reads one construct and the end of the
  // input, and writes what it read into `out`.

  /// A ModelProto.
  bool model(WireBuffer& out);
  /// A ModelProto holding only the graph.
  bool graphModel(WireBuffer& out);
  /// A ModelProto holding only a graph holding only the nodes.
  bool nodesModel(WireBuffer& out);
  /// A ModelProto holding only the function.
  bool functionModel(WireBuffer& out);
  /// A ModelProto holding only the functions (none or more, one after the other).
  bool functionsModel(WireBuffer& out);
  /// A TypeProto.
  bool type(WireBuffer& out);

  Status takeStatus() { return s_.takeStatus(); }

 private:
  // What a type turned out to be, for a tensor constant that follows it.
  struct TypeSummary {
    const char* begin = nullptr;  // the type's text
    const char* end = nullptr;
    int32_t elem_type = 0;               // a tensor type's element type; 0 for any other type
    bool has_shape = false;              // false for `float[]` (unknown rank)
    const char* symbolic_dim = nullptr;  // the first dim that is not a number, if any
    size_t dims_begin = 0;               // the dims, in dims_[dims_begin, dims_end)
    size_t dims_end = 0;
  };

  bool begin();
  bool end();

  // ---- transcoder.cc --------------------------------------------------------------------
  bool modelBody(WireBuffer& out);
  bool function(WireBuffer& out, uint32_t field);
  bool graph(WireBuffer& out, uint32_t field, TextString name);
  bool valueInfo(WireBuffer& infos, uint32_t info_field, WireBuffer* initializers,
                 bool info_with_initializer);
  bool nodeList(WireBuffer& out, uint32_t field);
  bool node(WireBuffer& out, uint32_t field);
  bool operatorName(TextString& domain, TextString& op_type);
  bool nameList(std::vector<TextString>& names);
  bool optionalName(TextString& name, bool& found);
  bool attributeList(WireBuffer& out);
  bool attribute(WireBuffer& out, uint32_t field, const TextString& name);
  /// One value; `kind` says what it was (kUndefined for a reference).
  bool attributeValue(WireBuffer& out, AttributeKind expected, bool in_list, AttributeKind& kind,
                      TextString& reference);
  bool opsetImports(WireBuffer& out, uint32_t field);
  bool stringEntries(WireBuffer& out, uint32_t field);
  bool arrow();

  // ---- transcode_types.cc ----------------------------------------------------------------
  /// A TypeProto's fields into `out`; `summary` (for a type at the top) says what it was.
  bool typeBody(WireBuffer& out, TypeSummary* summary);
  bool tensorShape(WireBuffer& out, TypeSummary* summary);
  /// A TensorProto of type `type` named `name`, as field `field` of `out`: the data that
  /// follows (`{values}`, `[external data]` or nothing).
  bool tensorConstant(WireBuffer& out, uint32_t field, const TypeSummary& type,
                      const TextString& name);
  bool tensorValues(WireBuffer& out, int32_t elem_type);
  bool dottedName(TextString& name);
  /// True when the identifier that comes next starts a type.
  bool nextIsType();
  bool quotableName(TextString& name, std::string_view what);
  bool tooDeep();

  // Nesting of graphs in attributes and types in types.
  class Depth {
   public:
    explicit Depth(Transcoder& t) : t_(t) { ++t_.depth_; }
    ~Depth() { --t_.depth_; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
    bool ok() const { return t_.depth_ <= t_.options_.max_depth || t_.tooDeep(); }

   private:
    Transcoder& t_;
  };

  std::string_view text_;
  Scanner s_;
  const TextParseOptions& options_;
  int depth_ = 0;
  BufferStack buffers_;
  WireBuffer type_buffer_;  // the type just read, until its owner's name is written
  // Stacks shared by nested constructs: each pushes above its parent's entries and pops back.
  std::vector<TextString> names_;
  std::vector<int64_t> dims_;
  std::vector<int64_t> ints_;
  std::vector<float> floats_;
  std::vector<TextString> strings_;
};

}  // namespace onyx::text
