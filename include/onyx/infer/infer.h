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
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "onyx/core/diagnostic.h"
#include "onyx/core/symbolic_dims.h"
#include "onyx/ir/model.h"
#include "onyx/ops/inferred_type.h"

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
  /// Keep what inference knows of each value of the main graph and of the graphs nested in
  /// it in InferResult::values: its type and, for a small integer tensor, its elements.
  bool keep_values = false;
  /// Merge the types value_info declares for node outputs with what the rules give. Off,
  /// only graph inputs and outputs count as declared: what is then known follows from the
  /// interface and the operators alone, never from an annotation an exporter wrote for one
  /// particular run (a batch of 1 where the input says `batch`).
  bool trust_value_info = true;
  /// Take an initializer that is also a graph input as the constant it holds, not as a
  /// default a caller may override. Before IR 4 that is always so (every initializer had to
  /// be an input, and none can be overridden: onnxruntime reads them the same way); from
  /// IR 4 on this says that the model is run without feeding them (onnxruntime's
  /// remove_initializer_from_input.py makes it so).
  bool constant_initializers = false;
};

/// What inference knows of one value (InferOptions::keep_values).
struct KnownValue {
  InferredType type;
  /// The elements of an integer or bool tensor of rank 0 or 1 of at most
  /// kMaxPropagatedElements (onyx/ops/inference_context.h), numbers or expressions of
  /// InferResult::dims; nullopt when not known.
  std::optional<Dims> data;
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
  /// The symbols and expressions every dimension and element the engine found is made of.
  SymbolicDims dims;
  /// With InferOptions::keep_values: each value of the main graph and of the graphs nested in
  /// it that inference met (a body inferred twice, as Loop's, leaves its last state). Only
  /// looked up: iterating it would give an order that changes from run to run.
  std::unordered_map<const Value*, KnownValue> values;
};

/// Infers `model` in place (only adds or refines types unless a conflict is found; a
/// declared type is never replaced by a less precise one).
InferResult inferModel(Model& model, const InferOptions& options = {});
/// Infers `model` without writing anything into it, whatever InferOptions::write_back says:
/// what inference finds is only returned (InferOptions::keep_values keeps each value's).
InferResult inferModel(const Model& model, const InferOptions& options);

/// Inference as a check, recording nothing (the model is not modified): appends its errors
/// — R36, declared types that contradict inferred ones; X5, nodes whose inputs contradict
/// their operator — to `out`. Meant for CheckOptions::more_rules.
void checkInferredTypes(const Model& model, Diagnostics& out);

}  // namespace onyx

#pragma GCC visibility pop
