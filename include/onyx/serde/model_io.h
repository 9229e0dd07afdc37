// onyx/serde/model_io.h — binary .onnx files in and out of the IR.
//
// Loading maps the file and decodes it straight into a Model: names and tensor data stay
// views into the mapping, so the cost grows with the graph, not the weights. Saving emits
// every field in field-number order (unknown fields among them, where they were), so a
// file a protobuf library wrote comes back byte-identical, and the same model always
// gives the same bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "onyx/core/file_writer.h"
#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct LoadOptions {
  /// Messages nested deeper than this are refused (graphs in attributes, types in types).
  int max_depth = 100;
  /// Refuse names (of values, nodes, operators, domains, ...) that are not UTF-8.
  bool validate_utf8 = true;
  /// Map each external data file and check every tensor's range in it at load. When
  /// false, external tensors stay unresolved and their files are not touched.
  bool load_external_data = true;
  /// Threads that decode a large graph's nodes, initializers and value_info entries
  /// (0: one per core). The model, its errors and the order of everything in it are the
  /// same for any count.
  int threads = 0;
  /// Graphs smaller than this many bytes decode on the calling thread alone: for them,
  /// starting threads costs more than it saves.
  uint64_t parallel_min_bytes = uint64_t{1} << 20;
};

/// Loads the model at `path`; external data locations resolve against its folder.
Result<Model> loadModel(const std::string& path, const LoadOptions& options = {});

/// Decodes a model from `bytes`. `owner` keeps the bytes alive (the model's views point
/// into them); pass null only if the bytes outlive the model. `folder` is where external
/// data lives ("" for none).
Result<Model> parseModel(std::string_view bytes, std::shared_ptr<const void> owner,
                         const LoadOptions& options = {}, const std::string& folder = "");

struct SaveOptions {
  /// Write every tensor whose data has at least this many bytes to external data.
  /// Unset: keep each tensor where it is (inline stays inline, external stays external).
  std::optional<uint64_t> external_threshold;
  /// The external data file, relative to the model's folder. Empty: one file per tensor.
  std::string external_file;
  /// Offsets of tensors of at least `align_threshold` bytes in the data file are
  /// multiples of this (a page, so that the data can be mapped).
  uint64_t alignment = 4096;
  uint64_t align_threshold = 4096;
  /// Bring all external data back inline.
  bool inline_external = false;
  /// When the model file would pass 2 GiB (which protobuf-based readers refuse) and no
  /// external data was asked for, move tensors of 1 KiB or more to `<model file>.data`
  /// instead, and say so through `notice`.
  bool external_when_too_large = true;
  /// What counts as too large: protobuf's limit for one message (tests lower it).
  uint64_t too_large_bytes = (uint64_t{1} << 31) - 1;
  /// Called with (bytes done, bytes total) while writing, for progress display.
  std::function<void(uint64_t, uint64_t)> progress;
  /// Called with a sentence when saving decides something the caller did not ask for.
  std::function<void(const std::string&)> notice;
  /// Whether saving waits for the files to reach the disk before renaming them into place.
  /// By default it does not, as onnx.save, cp and most writers of models: the files are
  /// still renamed in whole, so no reader ever sees half of one and a failure leaves the old
  /// file as it was; only a power loss soon after saving can lose the new one. Waiting
  /// costs the disk's write speed, seconds for a model of a few gigabytes (kFsync).
  SyncMode sync = SyncMode::kSkipFsync;
};

/// Encodes `model` as one binary message (its tensors as they are: external tensors keep
/// their references).
Result<std::string> serializeModel(const Model& model);

/// Writes `model` to `path` (beside, then renamed over it), with external data as
/// `options` say.
Status saveModel(const Model& model, const std::string& path, const SaveOptions& options = {});

}  // namespace onyx

#pragma GCC visibility pop
