#include "serde/external_data.h"
#include "ir/graph_builder.h"

#include <charconv>

#include "onyx/ir/editor.h"
#include "onyx/ir/walk.h"
#include "onyx/serde/external_path.h"

namespace onyx::serde {

namespace {

// external_data values are decimal text; anything else (signs, spaces, overflow) is refused.
Result<uint64_t> parseDecimal(std::string_view text, std::string_view key) {
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return Status(ErrorCode::kMalformed, "external_data " + std::string(key) + " \"" +
                                             std::string(text) + "\" is not a decimal number");
  }
  return value;
}

Status resolveOne(ExternalDataDir& dir, Tensor& tensor, Arena& arena) {
  std::optional<std::string_view> location = tensor.externalValue("location");
  if (!location) {
    return Status(ErrorCode::kMalformed, "external data without a location");
  }
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  if (auto text = tensor.externalValue("offset")) {
    auto parsed = parseDecimal(*text, "offset");
    if (!parsed) return std::move(parsed).takeStatus();
    offset = *parsed;
  }
  if (auto text = tensor.externalValue("length")) {
    auto parsed = parseDecimal(*text, "length");
    if (!parsed) return std::move(parsed).takeStatus();
    length = *parsed;
  }
  auto file = dir.openForRead(*location);
  if (!file) return std::move(file).takeStatus();
  auto bytes = slice(**file, offset, length);
  if (!bytes) return std::move(bytes).takeStatus();
  ir_internal::GraphBuilder::editorOn(arena).rare(&tensor).external_bytes = *bytes;
  return Status::ok();
}

}  // namespace

Status resolveExternalData(Model& model, const std::vector<Tensor*>& tensors) {
  if (model.folder().empty()) {
    return Status(ErrorCode::kInvalidArgument,
                  "the model has external data but was not loaded from a folder");
  }
  auto dir = ExternalDataDir::open(model.folder());
  if (!dir) return std::move(dir).takeStatus();
  for (Tensor* tensor : tensors) {
    Status status = resolveOne(*dir, *tensor, GraphEditor(model).arena());
    if (!status) {
      std::string path = tensorPath(model, tensor);
      return status.within(path.empty() ? "tensor(" + std::string(tensor->nameOrEmpty()) + ")"
                                        : path);
    }
  }
  // The mapped files must live as long as the tensors that point into them.
  model.keepAlive(std::make_shared<ExternalDataDir>(std::move(*dir)));
  return Status::ok();
}

}  // namespace onyx::serde
