// The model files the commands read: binary `.onnx`, or the text syntax by extension.
#pragma once

#include <string>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

namespace onyx::tool {

/// `.txt` and `.onnxtxt` name the text syntax; anything else is read as binary.
bool isTextPath(const std::string& path);

/// The model at `path`, binary or text by isTextPath(); external data (named in either)
/// is read from beside the file when `load_external_data`.
Result<Model> readModel(const std::string& path, bool load_external_data);

}  // namespace onyx::tool
