#include "model_files.h"

#include <fmt/format.h>

#include <filesystem>
#include <vector>

#include "commands.h"
#include "onyx/core/file_writer.h"
#include "onyx/text/printer.h"
#include "progress.h"

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

std::optional<Model> readModelOrSay(const std::string& path, bool load_external_data,
                                    int& exit_code, bool needs_graph) {
  Result<Model> loaded = readModel(path, load_external_data);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", path, loaded.status().toString());
    exit_code = kExitUnreadable;
    return std::nullopt;
  }
  if (needs_graph && loaded->graph == nullptr) {
    fmt::print(stderr, "onyx: {} has no graph\n", path);
    exit_code = kExitInvalid;
    return std::nullopt;
  }
  return std::move(*loaded);
}

namespace {

int writeText(const Model& model, const std::string& path, bool lossy, const std::string& source) {
  std::string text;
  std::vector<TextLoss> losses;
  printModel(model, text, PrintOptions(), &losses);
  if (!losses.empty() && !lossy) {
    fmt::print(stderr, "onyx: the text syntax cannot hold {} part{} of {}:\n", losses.size(),
               losses.size() == 1 ? "" : "s", source.empty() ? "the model" : source);
    constexpr size_t kShown = 10;
    for (size_t i = 0; i < losses.size() && i < kShown; ++i) {
      fmt::print(stderr, "  {}: {}\n", losses[i].path, losses[i].detail);
    }
    if (losses.size() > kShown) fmt::print(stderr, "  ... and {} more\n", losses.size() - kShown);
    fmt::print(stderr, "onyx: nothing written; pass --lossy to write the text without them\n");
    return kExitUnreadable;
  }
  auto writer = AtomicFileWriter::create(path);
  Status status = writer ? writer->write(text) : writer.status();
  if (status) status = writer->commit();
  if (!status) {
    fmt::print(stderr, "onyx: cannot write {}: {}\n", path, status.toString());
    return kExitUnreadable;
  }
  if (!losses.empty()) {
    fmt::print(stderr, "onyx: left out {} part{} the text syntax cannot hold (--lossy)\n",
               losses.size(), losses.size() == 1 ? "" : "s");
  }
  return kExitOk;
}

}  // namespace

SaveOptions reportingSaveOptions(ProgressBar& bar) {
  SaveOptions options;
  options.progress = [&bar](uint64_t done, uint64_t total) { bar.update(done, total); };
  options.notice = [](const std::string& text) { fmt::print(stderr, "onyx: {}\n", text); };
  return options;
}

int writeModel(const Model& model, const std::string& path, const SaveOptions& options, bool lossy,
               const std::string& source) {
  if (isTextPath(path)) return writeText(model, path, lossy, source);
  if (Status saved = saveModel(model, path, options); !saved) {
    fmt::print(stderr, "onyx: cannot write {}: {}\n", path, saved.toString());
    return kExitUnreadable;
  }
  return kExitOk;
}

}  // namespace onyx::tool
