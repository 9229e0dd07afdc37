#include "model_files.h"

#include <filesystem>

#include "onyx/core/mapped_file.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"

namespace onyx::tool {

bool isTextPath(const std::string& path) {
  return path.ends_with(".txt") || path.ends_with(".onnxtxt");
}

Result<Model> readModel(const std::string& path, bool load_external_data) {
  if (!isTextPath(path)) {
    LoadOptions options;
    options.load_external_data = load_external_data;
    return loadModel(path, options);
  }
  auto file = MappedFile::open(path);
  if (!file) return file.status();
  TextParseOptions options;
  // External data named in the text lives beside it, as for a binary model.
  if (load_external_data) {
    std::string folder = std::filesystem::path(path).parent_path().string();
    options.folder = folder.empty() ? "." : folder;
  }
  return parseText((*file)->bytes(), options);
}

}  // namespace onyx::tool
