// Internal: the checker's rules for values that stand alone — attributes, tensors, sparse
// tensors and types (catalogue rules R50, R55–R90). The graph walker (src/check) calls them
// for every such value it meets, with the value's path; they report into `out` and never
// stop at the first problem. Nested graphs inside attributes are walked by the graph walker,
// not here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "onyx/core/diagnostic.h"
#include "onyx/ir/model.h"

namespace onyx::check {

struct ValueContext {
  const Model* model = nullptr;   // for the IR version and the folder external data is in
  int64_t ir_version = 0;         // the model's ir_version, 0 when absent
  bool in_function_body = false;  // attribute references (ref_attr_name) are legal only there
  bool is_initializer = false;    // a graph initializer (tensors), or a sparse initializer
  // The function whose body (or a graph nested in it) holds the value, when in_function_body;
  // lets R59 check that a reference names an attribute the function declares. Null: unchecked.
  const Function* function = nullptr;
  // A function's attribute default (attribute_proto): whether it holds a value — not a
  // reference, not an empty TENSOR, GRAPH, SPARSE_TENSOR or TYPE_PROTO — is R101's, so R50
  // and R59 say nothing about it.
  bool is_attribute_default = false;
  // The type of an input or output of a top-level graph (main, initialization, algorithm):
  // R24 requires its opaque name, so R88 does not also warn about it.
  bool is_graph_io = false;
  // The declared type of a value whose type is optional: an input or output of a nested graph
  // (IR.md "Graphs": nested graphs MAY define the types of their inputs and outputs) or a
  // value_info entry. An empty TypeProto there (no kind set, as PyTorch writes for If and Loop
  // bodies) declares nothing: the value's type is unknown, so R83 does not apply to the type
  // itself, only to the types nested in one that has a kind. onnx's checker does the same.
  bool type_is_optional = false;
  // False when asked not to open files (CheckOptions::external_data): an external location is
  // judged by its syntax alone, and a file not opened is not reported.
  bool open_external_files = true;
};

/// How many of the attribute's value fields hold something (R57 allows at most one): scalars
/// and messages when present, lists when not empty.
size_t valueFieldCount(const Attribute& attribute);

void checkAttribute(const Attribute& attribute, const ValueContext& context,
                    const std::string& path, Diagnostics& out);
void checkTensor(const Tensor& tensor, const ValueContext& context, const std::string& path,
                 Diagnostics& out);
void checkSparseTensor(const SparseTensor& sparse, const ValueContext& context,
                       const std::string& path, Diagnostics& out);
void checkType(const Type& type, const ValueContext& context, const std::string& path,
               Diagnostics& out);

}  // namespace onyx::check
