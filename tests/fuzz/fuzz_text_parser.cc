// fuzz_text_parser — arbitrary bytes through every entry point of the text parser (model,
// graph, node list, function, type). A refusal must be a located error: kMalformed or
// kLimitExceeded, a message that starts "line L, column C: " and an offset inside the input.
// A model that parses must serialize, decode, and serialize again to the same bytes.
// kInternal (the decoder refusing what the parser wrote), crashes and sanitizer reports trap.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"

namespace onyx::fuzz {
namespace {

[[noreturn]] void broken(const char* entry, const char* what, const Status& status) {
  std::fprintf(stderr, "fuzz_text_parser: %s: %s\n", entry, what);
  if (!status.isOk()) std::fprintf(stderr, "  status: %s\n", status.toString().c_str());
  __builtin_trap();
}

void checkRefusal(const char* entry, const Status& status, size_t size) {
  if (status.code() != ErrorCode::kMalformed && status.code() != ErrorCode::kLimitExceeded) {
    broken(entry, "a refusal with an unexpected code", status);
  }
  if (status.message().rfind("line ", 0) != 0 ||
      status.message().find(", column ") == std::string::npos) {
    broken(entry, "a refusal that does not say where", status);
  }
  if (!status.offset() || *status.offset() > size) {
    broken(entry, "a refusal without an offset inside the input", status);
  }
}

void checkModel(const char* entry, const Result<Model>& model, size_t size) {
  if (!model) {
    checkRefusal(entry, model.status(), size);
    return;
  }
  Result<std::string> written = serializeModel(*model);
  if (!written) broken(entry, "a parsed model does not serialize", written.status());
  auto bytes = std::make_shared<const std::string>(std::move(*written));
  LoadOptions options;
  options.load_external_data = false;
  Result<Model> decoded = parseModel(*bytes, bytes, options);
  if (!decoded) broken(entry, "onyx refuses the model it parsed, once written", decoded.status());
  Result<std::string> rewritten = serializeModel(*decoded);
  if (!rewritten) broken(entry, "the decoded model does not serialize", rewritten.status());
  if (*rewritten != *bytes) broken(entry, "writing the decoded model gave other bytes", {});
}

void run(std::string_view text) {
  checkModel("parseText", parseText(text), text.size());
  checkModel("parseGraphText", parseGraphText(text), text.size());
  checkModel("parseNodesText", parseNodesText(text), text.size());
  checkModel("parseFunctionText", parseFunctionText(text), text.size());
  Model owner;
  Result<Type*> type = parseTypeText(text, owner);
  if (!type) checkRefusal("parseTypeText", type.status(), text.size());
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
