// Internal: the walk over one root graph and every graph nested in it, with the graph and
// node rules (R23–R35, R37–R40, R54, and R95/R102 in function bodies). It calls the value
// rules (value_rules.h) for every attribute (which go on into the tensors, sparse tensors and
// types it holds), initializer, sparse initializer and declared type it meets, and
// checkNodeSignature (node_signature.h) for every node.
//
// One pass: each node's inputs are checked against the set of nodes already walked (a node
// is marked once the graphs its attributes hold are walked, so those graphs see exactly the
// nodes before it), each definition against its graph's name table, each nested definition
// against the names visible from the enclosing graphs. Nothing is formatted unless a
// diagnostic is reported.
#pragma once

#include <cstdint>
#include <vector>

#include "check/check_context.h"
#include "check/hash_sets.h"

namespace onyx::check {

enum class GraphRole : uint8_t {
  kMain,              // ModelProto.graph
  kSubgraph,          // held by a node's attribute (g, graphs)
  kInitialization,    // TrainingInfoProto.initialization
  kAlgorithm,         // TrainingInfoProto.algorithm: continues the main graph
  kFunctionBody,      // a FunctionProto's nodes and value_info (its inputs and outputs are
                      // the function's, checked by function_rules.cc)
  kAttributeDefault,  // a graph held by a function's attribute_proto default
};

/// What the graphs under one root share.
struct RootScope {
  const OpsetImports* imports = nullptr;  // what nodes resolve against
  const Function* function = nullptr;     // set inside a function (body or attribute default)
  bool in_function_body = false;          // attribute references are legal here (R59)
  const Graph* preceding = nullptr;       // kAlgorithm: the main graph, whose values it reads
};

class Walker {
 public:
  explicit Walker(CheckContext& context) : context_(context) {}

  /// Walks `graph` (a root: no enclosing graph) and the graphs nested in it.
  void walk(const Graph& graph, const GraphPlace& place, GraphRole role, const RootScope& scope);

  /// The metadata_props of the tensors an attribute holds (`t`, `tensors`, and the values of
  /// its sparse tensors). The tensors themselves are checkAttribute's, which goes into them.
  static void checkAttributeMetadata(const Attribute& attribute, const LazyPath& path,
                                     const CheckContext& context);

 private:
  struct Frame {
    Frame(const Graph& walked, const GraphPlace& at, GraphRole as, const RootScope& under,
          int nesting)
        : graph(walked),
          place(at),
          role(as),
          scope(under),
          depth(nesting),
          // Every value in the name table is one of the graph's values, so when the counts
          // agree no value is left out of it: no name has a second definition, and the
          // walk need not look each definition up.
          single_definitions(walked.values().size() - walked.removedValueCount() ==
                             walked.names().size()) {}

    const Graph& graph;
    const GraphPlace& place;
    GraphRole role;
    const RootScope& scope;
    int depth;
    bool single_definitions;
    // Names of graph inputs (initializers) that a node output also defines. A file lists
    // nodes first, so the node's output holds the name; the input is the real definition:
    // the node's output is reported, and reads before it are reads of the input.
    mutable NameSet inputs_redefined;
    mutable NameSet initializers_redefined;

    bool nested() const { return role == GraphRole::kSubgraph; }
    /// The function whose body holds this graph (directly or nested); null outside bodies.
    const Function* body() const { return scope.in_function_body ? scope.function : nullptr; }
    bool topLevel() const {
      return role == GraphRole::kMain || role == GraphRole::kInitialization ||
             role == GraphRole::kAlgorithm;
    }
  };

  void walkGraph(const Frame& frame);
  void checkGraphFields(const Frame& frame);
  void checkInputs(const Frame& frame);
  void checkInitializers(const Frame& frame);
  void checkValueInfo(const Frame& frame);
  void checkOutputs(const Frame& frame);
  /// A named node, for the check that node names are unique (R35).
  struct NamedNode {
    uint64_t hash;
    std::string_view name;
    size_t index;
    const Node* node;
  };

  void checkNode(const Frame& frame, const Node& node, size_t index);
  void checkNodeNames(const Frame& frame, const std::vector<NamedNode>& named);
  void checkRead(const Frame& frame, const Node& node, const Value& value, const LazyPath& path);
  void checkDefinition(const Frame& frame, const Value& value, const LazyPath& path,
                       std::string_view what);
  void walkAttributeGraphs(const Frame& frame, const Node& node, size_t index);
  void checkIoType(const ValueInfo& info, const LazyPath& path);
  void checkNameStyle(std::string_view name, const LazyPath& path, std::string_view what);

  /// The value named `name` that an enclosing graph (or, under an algorithm graph, the main
  /// graph) defines and has defined by the place `frame`'s graph sits at; null if none.
  const Value* visibleOuter(const Frame& frame, std::string_view name) const;
  /// Whether the main graph an algorithm graph continues defines `name`.
  static const Value* definedBefore(const Frame& frame, std::string_view name);

  CheckContext& context_;
  PointerSet walked_;  // nodes walked so far
};

}  // namespace onyx::check
