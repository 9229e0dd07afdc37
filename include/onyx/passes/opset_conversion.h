// onyx/passes/opset_conversion.h — moving a model to another version of an operator set.
//
// Every node of the converted domain, in the main graph, the training graphs, the
// model-local functions and every graph nested in them, crosses the version steps of its
// operator one at a time, each by the adapter its op file gives for that step
// (OpSchema::step), by the imports of its own scope. The conversion is all or nothing: every
// node is drafted first, beside the graph; when any node cannot cross, the model is left as
// it was and the error names every blocking node with its place and reason. Only then are
// the drafts written, one Patch per graph, and the imports changed. Value names, metadata,
// training info, external data and unknown fields stay as they are. Cost: linear in the
// nodes, plus one inference pass when an adapter asks for a type or rank or a step narrows
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
