#include "onyx/ir/model.h"

namespace onyx {

std::optional<int64_t> Model::opsetVersion(std::string_view opset_domain) const {
  auto canonical = [](std::string_view d) { return d == "ai.onnx" ? std::string_view() : d; };
  std::optional<int64_t> version;
  for (const OperatorSetId& opset : opset_import) {
    if (canonical(opset.domain.value_or("")) == canonical(opset_domain)) version = opset.version;
  }
  return version;
}

}  // namespace onyx
