// onyx/ir/model.h — ModelProto in the IR, and the owner of everything a model holds.
//
// A Model owns its arena (nodes, values, names, attributes) and keeps alive the mapped
// files its tensors point into. It is move-only. Reading a Model from several threads at
// once is safe; mutating it is not (one writer, no concurrent readers).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/arena.h"
#include "onyx/ir/fields.h"
#include "onyx/ir/function.h"
#include "onyx/ir/graph.h"

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
  Model() : arena_(std::make_unique<Arena>()) {}
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

  Arena& arena() { return *arena_; }

  /// Keeps `owner` (a mapped file, a buffer) alive as long as the model, because views in
  /// the model point into it.
  void keepAlive(std::shared_ptr<const void> owner) { keep_alive_.push_back(std::move(owner)); }

  /// The folder external data locations are relative to (empty for a model from bytes).
  const std::string& folder() const { return folder_; }
  void setFolder(std::string folder) { folder_ = std::move(folder); }

  /// The version of `domain` this model imports ("" and "ai.onnx" are the same domain).
  std::optional<int64_t> opsetVersion(std::string_view opset_domain) const;

 private:
  std::unique_ptr<Arena> arena_;
  std::vector<std::shared_ptr<const void>> keep_alive_;
  std::string folder_;
};

}  // namespace onyx
