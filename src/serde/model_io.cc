#include "onyx/serde/model_io.h"

#include "onyx/core/mapped_file.h"
#include "onyx/ir/editor.h"
#include "serde/decoder.h"
#include "serde/encoder.h"
#include "serde/external_data.h"
#include "serde/folder.h"

namespace onyx {

Result<Model> parseModel(std::string_view bytes, std::shared_ptr<const void> owner,
                         const LoadOptions& options, const std::string& folder) {
  if (options.max_depth < 1) {
    return Status(ErrorCode::kInvalidArgument, "LoadOptions::max_depth must be at least 1");
  }
  Model model;
  if (owner) model.keepAlive(std::move(owner));
  model.setFolder(folder);
  serde::Decoder decoder(GraphEditor(model).arena(), options, bytes.data());
  if (!decoder.decodeModel(bytes, model)) return decoder.takeStatus();
  if (options.load_external_data && !decoder.externalTensors().empty()) {
    ONYX_RETURN_IF_ERROR(serde::resolveExternalData(model, decoder.externalTensors()));
  }
  return model;
}

Result<Model> loadModel(const std::string& path, const LoadOptions& options) {
  auto file = MappedFile::open(path);
  if (!file) return std::move(file).takeStatus();
  std::shared_ptr<const MappedFile> mapped = std::move(file.value());
  std::string_view bytes = mapped->bytes();
  return parseModel(bytes, std::move(mapped), options, serde::folderOf(path));
}

Result<std::string> serializeModel(const Model& model) {
  std::string bytes;
  wire::StringOutput out(bytes);
  Status status = wire::encodeTwoPass(out, [&](auto& sink) {
    serde::Encoder<std::remove_reference_t<decltype(sink)>> encoder(sink);
    encoder.model(model);
  });
  if (!status) return status;
  return bytes;
}

}  // namespace onyx
