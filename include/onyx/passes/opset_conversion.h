// onyx/passes/opset_conversion.h — moving a model to another version of an operator set.
//
// Every node of the converted domain, in the main graph, the training graphs, the
// model-local functions and every graph nested in them, crosses the version steps of its
// operator one at a time, each by the adapter its op file gives for that step
// (OpSchema::step), by the imports of its own scope. The conversion is all or nothing: every
// node is drafted first, beside the graph; when any node cannot cross, the model is left as
// it was and the error names every blocking node with its place and reason. A node that
// cannot cross (its operator is younger than the target, or an adapter cannot express it
// there) but whose operator the spec defines as a function (Gelu, LayerNormalization,
// CastLike, HardSwish, ...) is replaced by its function body first, and the body's nodes
// cross instead; a body that cannot cross either is taken back, and the error says what in
// it blocks. Only then are the drafts written, one Patch per graph, and the imports changed. Value
// names, metadata, training info, external data and unknown fields stay as they are. Cost: linear
// in the nodes, plus one inference pass when an adapter asks for a type or rank or a step narrows
// the types a version takes.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// A domain ("" or "ai.onnx" for the default one) and the version to move it to.
struct OpsetTarget {
  std::string domain;
  int64_t version = 0;
};

struct ConversionSummary {
  size_t nodes_seen = 0;     // nodes of the converted domains
  size_t nodes_changed = 0;  // nodes whose attributes or inputs an adapter rewrote
  /// Nodes of the model replaced by their operator's function body because they could not
  /// cross themselves (an operator younger than the target, a step no adapter can take); a
  /// body's nodes expanded in turn are not counted again.
  size_t nodes_expanded = 0;
};

/// Converts `model` to `targets` (each domain at most once). A domain the model does not
/// import is left alone. Errors: a target outside the versions onyx knows (kInvalidArgument),
/// or nodes that cannot cross (kUnsupported, one line per node: `place: Op from to to: why`),
/// with the model unchanged.
Result<ConversionSummary> convertOpset(Model& model, std::span<const OpsetTarget> targets);
/// The same for the default domain alone.
Result<ConversionSummary> convertOpset(Model& model, int64_t version);

}  // namespace onyx

#pragma GCC visibility pop
