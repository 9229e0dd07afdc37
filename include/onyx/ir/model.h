// onyx/ir/model.h — ModelProto in the IR, and the owner of everything a model holds.
//
// A Model owns its arena (nodes, values, names, attributes) and keeps alive the mapped
// files its tensors point into. It is move-only. Reading a Model from several threads at
// once is safe; mutating it is not (one writer, no concurrent readers). Metadata lists
// (metadata_props here and on graphs, nodes, functions) are edited with metadata.h.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/arena.h"
#include "onyx/ir/fields.h"
#include "onyx/ir/function.h"
#include "onyx/ir/graph.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct TrainingInfo {
  Graph* initialization = nullptr;
  Graph* algorithm = nullptr;
  ArenaList<StringStringEntry> initialization_binding;
  ArenaList<StringStringEntry> update_binding;
  UnknownFields unknown;
};

class Model {
 public:
  Model() : arena_(std::make_shared<Arena>()) {}
  Model(Model&&) = default;
  Model& operator=(Model&&) = default;

  std::optional<int64_t> ir_version;
  ArenaList<OperatorSetId> opset_import;
  OptString producer_name;
  OptString producer_version;
  OptString domain;
  std::optional<int64_t> model_version;
  OptString doc_string;
  Graph* graph = nullptr;
  ArenaList<StringStringEntry> metadata_props;
  ArenaList<TrainingInfo*> training_info;
  ArenaList<Function*> functions;
  ArenaList<DeviceConfiguration*> configuration;
  UnknownFields unknown;

  /// Keeps `owner` (a mapped file, a buffer) alive as long as the model, because views in
  /// the model point into it.
  void keepAlive(std::shared_ptr<const void> owner) { keep_alive_.push_back(std::move(owner)); }

  /// The folder external data locations are relative to (empty for a model from bytes).
  const std::string& folder() const { return folder_; }
  void setFolder(std::string folder) { folder_ = std::move(folder); }

  /// Keeps alive in this model everything `other`'s views point into (its arena and the
  /// files it maps), so that graphs, functions or tensors cloned from `other` may share its
  /// strings and tensor data.
  void shareBytesOf(const Model& other);
  /// What keeps alive everything this model's views point into (its arena and the files it
  /// maps), for a view that may outlive the model: the evaluator's arrays of its constants.
  std::shared_ptr<const void> bytesOwner() const;

  // ---- opsets -----------------------------------------------------------------------------

  /// The version of `domain` this model imports, by the rule of OpsetImports
  /// (onyx/ir/opset_imports.h: "" and "ai.onnx" are one domain; the last entry binds). Build
  /// an OpsetImports to look up many nodes. O(opsets²).
  std::optional<int64_t> opsetVersion(std::string_view opset_domain) const;
  /// Imports `domain` at `version`, or changes the version it is imported at (the entry that
  /// binds). O(opsets).
  void setOpsetVersion(std::string_view opset_domain, int64_t version);
  /// Stops importing `domain`; false when it was not imported. O(opsets).
  bool removeOpset(std::string_view opset_domain);

  // ---- functions, keyed by FunctionId (domain, name and, from IR 10, overload) -------------

  /// The function with this id (FunctionId: "" and "ai.onnx" are one domain; the overload
  /// counts from IR 10), or null. Which function a node calls is onyx/ops/callee.h's
  /// question: a standard operator comes first. O(functions).
  Function* findFunction(std::string_view function_domain, std::string_view function_name,
                         std::string_view function_overload = {}) const;
  /// Adds `function` (from GraphEditor::newFunction or cloneFunction). Refused
  /// when its id is taken. O(functions).
  Status addFunction(Function* function);
  /// Removes `function`; false when the model does not hold it. Its body goes with it: its
  /// nodes and values read as removed (graph() is null). Nodes calling it are left as they
  /// are. O(functions + the body).
  bool removeFunction(const Function* function);

  // ---- training, devices -----------------------------------------------------------------

  /// A new training_info entry with an empty algorithm graph. O(1).
  TrainingInfo& addTrainingInfo();
  /// A new device configuration. O(devices).
  DeviceConfiguration& addConfiguration(std::string_view configuration_name, int32_t num_devices,
                                        std::initializer_list<std::string_view> devices = {});
  /// The device configuration named so, or null. O(configurations).
  DeviceConfiguration* findConfiguration(std::string_view configuration_name) const;

 private:
  friend class GraphEditor;       // the one public way to the arena (editor.h)
  std::shared_ptr<Arena> arena_;  // shared with clones, which keep it alive
  std::vector<std::shared_ptr<const void>> keep_alive_;
  std::string folder_;
};

}  // namespace onyx

#pragma GCC visibility pop
