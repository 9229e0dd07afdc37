// The model files the commands read: binary `.onnx`, or the text syntax by extension.
#pragma once

#include <optional>
#include <string>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/serde/model_io.h"

namespace onyx::tool {

/// How a command's help names the model file it reads.
inline constexpr const char* kModelFileHelp =
    "the model: binary, or the text syntax when named .onnxtxt or .txt";

/// `.txt` and `.onnxtxt` name the text syntax; anything else is read as binary.
bool isTextPath(const std::string& path);

/// The model at `path`, binary or text by isTextPath(); external data (named in either)
/// is read from beside the file when `load_external_data`.
Result<Model> readModel(const std::string& path, bool load_external_data);

/// readModel, saying on stderr why not (and setting `exit_code`: kExitUnreadable for a file
/// that cannot be read; kExitInvalid for a model without a graph when `needs_graph`).
std::optional<Model> readModelOrSay(const std::string& path, bool load_external_data,
                                    int& exit_code, bool needs_graph = true);

class ProgressBar;

/// Saving options that draw `bar` as the data is written and say on stderr what saving
/// decides by itself (a model too large for protobuf moving its data out).
SaveOptions reportingSaveOptions(ProgressBar& bar);

/// Writes `model` to `path`, in the text syntax by isTextPath(), else binary with `options`.
/// The text refuses what it cannot hold (listed on stderr, naming `source`, the file it came
/// from) unless `lossy`. Errors go to stderr; returns the command's exit code.
int writeModel(const Model& model, const std::string& path, const SaveOptions& options,
               bool lossy = false, const std::string& source = {});

}  // namespace onyx::tool
