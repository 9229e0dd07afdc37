// onyx/infer/infer.h — type and shape inference over a whole model.
//
// inferModel walks the main graph in order, runs each node's rule (the operator's own, or
// through a model-local function's body), merges what it finds with the types the model
// declares (a conflict is diagnostic R36, naming both), recurses into subgraphs with the
// outer scope's types, and records what it learned as value_info and output types.
//
// Dimensions the rules cannot compute stay symbolic: a dim_param of the model keeps its
// name, arithmetic on them gives expressions (`2*N`, `N*S`), and a dimension nothing names
// is written as unknown unless `name_unknown_dims` asks for invented names (`unk__0`, ...).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "onyx/core/diagnostic.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct InferOptions {
  /// An output whose type stays unknown is an error (X6), not a note.
  bool strict = false;
  /// Write dimensions nothing names as invented symbols instead of unknown.
  bool name_unknown_dims = false;
  /// Record the inferred types in the model (value_info of every graph, output types).
  bool write_back = true;
  /// How deep model-local function calls may nest.
  int max_function_depth = 64;
};

struct InferStats {
  size_t nodes = 0;           // nodes visited, subgraphs' included
  size_t outputs = 0;         // node outputs visited
  size_t outputs_typed = 0;   // ... whose type is known
  size_t outputs_shaped = 0;  // ... that are tensors of known rank
  size_t nodes_without_rule = 0;
};

struct InferResult {
  Diagnostics diagnostics;  // R36 conflicts, X5 nodes their rule refuses, X6 in strict mode
  /// Why outputs stay unknown, one line per node: `graph.node[3](x) Foo: no rule`.
  std::vector<std::string> notes;
  InferStats stats;
  /// Node outputs whose shape stays incomplete because it depends on the values of a graph
  /// input (the map's value: a Reshape to a shape fed at run time, a Slice of such bounds,
  /// and everything downstream), which no inference can know.
  std::unordered_map<const Value*, const Value*> value_dependent;
};

/// Infers `model` in place (only adds or refines types unless a conflict is found; a
/// declared type is never replaced by a less precise one).
InferResult inferModel(Model& model, const InferOptions& options = {});

/// Inference as a check, recording nothing (the model is not modified): appends its errors
/// — R36, declared types that contradict inferred ones; X5, nodes whose inputs contradict
/// their operator — to `out`. Meant for CheckOptions::more_rules.
void checkInferredTypes(const Model& model, Diagnostics& out);

}  // namespace onyx

#pragma GCC visibility pop
