// fuzz_model_decoder — arbitrary bytes through parseModel, and every model that decodes
// through serializeModel and back: the written form must decode again and write the very
// same bytes a second time (the writer is idempotent). The bytes are also decoded with
// every graph split over threads, which must give the same model or the same error.
// Crashes, sanitizer reports and any broken promise trap.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "onyx/serde/model_io.h"

namespace onyx::fuzz {
namespace {

[[noreturn]] void broken(const char* what, const Status& status) {
  std::fprintf(stderr, "fuzz_model_decoder: %s\n", what);
  if (!status.isOk()) std::fprintf(stderr, "  status: %s\n", status.toString().c_str());
  __builtin_trap();
}

[[noreturn]] void differ(const std::string& first, const std::string& second) {
  size_t at = 0;
  while (at < first.size() && at < second.size() && first[at] == second[at]) ++at;
  std::fprintf(stderr,
               "fuzz_model_decoder: writing the rewritten model gave other bytes "
               "(%zu and %zu bytes, first difference at byte %zu)\n",
               first.size(), second.size(), at);
  __builtin_trap();
}

void run(std::string_view bytes) {
  LoadOptions options;
  options.load_external_data = false;
  options.threads = 1;
  Result<Model> model = parseModel(bytes, nullptr, options);
  LoadOptions split_options = options;
  split_options.threads = 2;
  split_options.parallel_min_bytes = 0;
  Result<Model> split = parseModel(bytes, nullptr, split_options);
  if (split.isOk() != model.isOk()) {
    broken("one thread and two disagree on whether the model decodes",
           model.isOk() ? split.status() : model.status());
  }
  if (!model) {
    if (model.status().code() == ErrorCode::kOk) broken("a failed parse carries no error", {});
    if (split.status().toString() != model.status().toString()) {
      std::fprintf(stderr, "  on two threads: %s\n", split.status().toString().c_str());
      broken("one thread and two give different errors", model.status());
    }
    return;
  }
  Result<std::string> written = serializeModel(*model);
  if (!written) broken("a decoded model does not serialize", written.status());
  Result<std::string> split_written = serializeModel(*split);
  if (!split_written || *split_written != *written) {
    broken("the model decoded on two threads writes other bytes", split_written.status());
  }

  auto first = std::make_shared<const std::string>(std::move(*written));
  Result<Model> again = parseModel(*first, first, options);
  if (!again) broken("onyx refuses what it wrote", again.status());
  Result<std::string> rewritten = serializeModel(*again);
  if (!rewritten) broken("the re-decoded model does not serialize", rewritten.status());
  if (*rewritten != *first) differ(*first, *rewritten);
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
