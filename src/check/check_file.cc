// checkModelFile: reading a model file for the checker, so that a file that does not decode
// is one more diagnostic rather than a failure of the check.
#include <limits>
#include <vector>

#include "check/load_failure.h"
#include "onyx/check/checker.h"
#include "onyx/core/mapped_file.h"
#include "onyx/ir/walk.h"
#include "onyx/serde/model_io.h"
#include "serde/external_data.h"
#include "serde/folder.h"

namespace onyx {

namespace {

void append(Diagnostics& out, const Diagnostic& diagnostic) {
  out.add(diagnostic.rule, diagnostic.severity, diagnostic.path, diagnostic.message);
}

}  // namespace

Result<Diagnostics> checkModelFile(const std::string& path, const CheckOptions& options) {
  auto file = MappedFile::open(path);
  if (!file) return std::move(file).takeStatus();
  std::shared_ptr<const MappedFile> mapped = std::move(file.value());
  std::string_view bytes = mapped->bytes();

  Diagnostics out;
  constexpr uint64_t kProtobufLimit = std::numeric_limits<int32_t>::max();
  if (bytes.size() > kProtobufLimit) {
    out.error("R5", "",
              "the model file has " + std::to_string(bytes.size()) +
                  " bytes; protobuf readers refuse a message over 2 GiB (2147483647 bytes): keep "
                  "large tensors in external data (onyx convert --external-data)");
  }
  // External data is resolved apart from decoding, so that a bad location is one diagnostic
  // among the others instead of a model that does not load.
  LoadOptions load;
  load.load_external_data = false;
  auto model = parseModel(bytes, mapped, load, options.external_data ? serde::folderOf(path) : "");
  if (!model) {
    append(out, check::loadFailure(model.status()));
    return out;
  }
  if (options.external_data) {
    // Loading maps the data beside the tensors, so that the value rules can measure it and
    // read external sparse indices. Its refusal is not reported: the value rules judge every
    // external tensor, the refused one included, through the same resolver (R70–R72), with
    // the place of the key at fault and not only the first refusal.
    std::vector<Tensor*> tensors;
    forEachTensor(*model, [&](Tensor& tensor, TensorRole) {
      if (tensor.isExternal()) tensors.push_back(&tensor);
    });
    if (!tensors.empty()) static_cast<void>(serde::resolveExternalData(*model, tensors));
  }
  Diagnostics found = checkModel(*model, options);
  for (const Diagnostic& diagnostic : found.all()) append(out, diagnostic);
  return out;
}

}  // namespace onyx
