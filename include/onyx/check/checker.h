// onyx/check/checker.h — checking a model against the rules of the ONNX IR.
//
// The checker walks the whole model once — the main graph, every graph nested in an
// attribute, the training graphs and the bodies of model-local functions — and reports every
// problem it finds, each with its rule id and its place (docs/checker.md lists the rules).
// It never stops at the first problem and never throws; a model it cannot make sense of in
// one place is still checked everywhere else.
//
// Cost: one pass over the model, O(size) with hash lookups; paths are formatted only for
// the diagnostics reported. Thread safety: any number of threads may check the same model
// at once (the model is only read).
#pragma once

#include <functional>
#include <string>

#include "onyx/core/diagnostic.h"
#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// The newest IR version onyx knows the rules of.
inline constexpr int64_t kLatestIrVersion = 13;

struct CheckOptions {
  /// Open the external data files of tensors (through onyx's resolver, beneath the model's
  /// folder) and check that each is inside the folder and holds the tensor's bytes (R71,
  /// R72). When false, no file but the model is opened: a location is judged by its syntax
  /// alone (no `..`, not absolute, ...), and nothing is said about the files not opened.
  bool external_data = true;
  /// Also warn about names that are not C identifiers (R38). Off by default: the spec
  /// only recommends them, and exporters name values `/layer.1/Add_output_0`.
  bool name_style = false;
  /// Rules a higher layer adds, run after the checker's own when the model has no error
  /// (so they read a well-formed graph): the inference layer's R36 and X5 are given this
  /// way (onyx/infer/infer.h, checkInferredTypes), as `onyx check` does.
  std::function<void(const Model&, Diagnostics&)> more_rules;
};

/// Checks `model` (as loaded, or as built through the graph API). Warnings do not make a
/// model invalid: it is valid when the result has no error (Diagnostics::hasErrors()).
Diagnostics checkModel(const Model& model, const CheckOptions& options = {});

/// Reads the model at `path` and checks it. A file that cannot be read at all (missing,
/// a folder, no permission) gives the Status; a file that is read but does not decode as a
/// model gives the decoding failure as a diagnostic (R1, R2, R4 or R63), and a model file
/// larger than protobuf's 2 GiB limit gives R5 besides the other diagnostics.
Result<Diagnostics> checkModelFile(const std::string& path, const CheckOptions& options = {});

}  // namespace onyx

#pragma GCC visibility pop
