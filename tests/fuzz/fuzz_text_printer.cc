// fuzz_text_printer — every model that decodes from arbitrary bytes through the text printer:
// it must not crash, and the losses printModel() reports (and comments) must be exactly those
// textLosses() lists, which walks without formatting tensor data.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/serde/model_io.h"
#include "onyx/text/printer.h"

namespace onyx::fuzz {
namespace {

[[noreturn]] void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_text_printer: %s\n  %s\n", what, detail.c_str());
  __builtin_trap();
}

void run(std::string_view bytes) {
  LoadOptions options;
  options.load_external_data = false;
  Result<Model> model = parseModel(bytes, nullptr, options);
  if (!model) return;

  std::string text;
  std::vector<TextLoss> printed;
  printModel(*model, text, PrintOptions(), &printed);
  std::vector<TextLoss> listed = textLosses(*model);
  if (printed.size() != listed.size()) {
    broken("printModel and textLosses count different losses",
           std::to_string(printed.size()) + " and " + std::to_string(listed.size()));
  }
  for (size_t i = 0; i < printed.size(); ++i) {
    if (printed[i].path != listed[i].path || printed[i].detail != listed[i].detail) {
      broken("printModel and textLosses disagree", printed[i].path + " / " + listed[i].path);
    }
  }
  std::string plain;
  PrintOptions no_comments;
  no_comments.loss_comments = false;
  printModel(*model, plain, no_comments, nullptr);
  // Comments are whole lines inserted before statements: without them the text is no longer.
  if (plain.size() > text.size() || (printed.empty() && plain != text)) {
    broken("the comments changed the text", std::to_string(plain.size()) + " vs " +
                                                std::to_string(text.size()) + " bytes");
  }
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
