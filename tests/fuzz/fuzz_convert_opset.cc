// fuzz_convert_opset — opset conversion on every model that decodes, to a target the bytes
// choose (a hash of them: ai.onnx 1 to 28, and ai.onnx.ml 1 to 5 when the model imports it).
// Whatever the model, no crash. A refused conversion leaves the model writing the bytes it
// wrote before, and its message names the blocking nodes. A conversion that goes through
// leaves a graph that was consistent (verifyModel) consistent, importing the target (when it
// imported the domain), and a model that passed the checker before passes it after.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_hash.h"
#include "onyx/check/checker.h"
#include "onyx/ir/verify.h"
#include "onyx/passes/opset_conversion.h"
#include "onyx/serde/model_io.h"

namespace onyx::fuzz {
namespace {

[[noreturn]] void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_convert_opset: %s\n  %s\n", what, detail.c_str());
  __builtin_trap();
}

void run(std::string_view data) {
  Result<Model> model = parseModel(data, nullptr);
  if (!model) return;
  Result<std::string> before = serializeModel(*model);
  if (!before) return;
  // Some decoded models are inconsistent already (a subgraph value shadowing an outer one):
  // conversion must keep a consistent model consistent.
  bool was_consistent = !verifyModel(*model).hasErrors();
  bool was_valid = checkModel(*model).errorCount() == 0;
  uint64_t hash = hashOf(data);
  bool imports_onnx = model->opsetVersion("").has_value();
  std::vector<OpsetTarget> targets = {{"", static_cast<int64_t>(1 + hash % 28)}};
  if (model->opsetVersion("ai.onnx.ml")) {
    targets.push_back({"ai.onnx.ml", static_cast<int64_t>(1 + (hash >> 8) % 5)});
  }
  Result<ConversionSummary> done = convertOpset(*model, targets);
  if (!done) {
    Result<std::string> after = serializeModel(*model);
    if (!after || *after != *before) {
      broken("a refused conversion changed the model", done.status().toString());
    }
    if (done.status().message().empty()) broken("a refusal without a message", "");
    return;
  }
  if (Diagnostics links = verifyModel(*model); was_consistent && links.hasErrors()) {
    broken("the converted model is inconsistent", links.all()[0].toString());
  }
  for (const OpsetTarget& target : targets) {
    if (target.domain.empty() && !imports_onnx) continue;  // left alone
    if (model->opsetVersion(target.domain) != target.version) {
      broken("the converted model does not import the target", std::string(target.domain));
    }
  }
  if (!was_valid) return;
  if (Diagnostics found = checkModel(*model); found.errorCount() > 0) {
    broken("a valid model converts to one the checker refuses",
           "to " + std::to_string(targets[0].version) + ": " + found.all()[0].toString());
  }
  Result<std::string> written = serializeModel(*model);
  if (!written) broken("the converted model does not serialize", written.status().toString());
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
