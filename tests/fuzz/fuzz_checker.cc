// fuzz_checker — arbitrary bytes through the decoder and, when they decode, through the
// checker: no crash, no hang, and every diagnostic well formed — a rule id R1–R105 or X<n>,
// a message, a path and a message on one line each (the CLI prints one diagnostic per line).
// The model is checked as `onyx check` does (with inference's R36 and X5) twice, the second
// time with the opt-in name-style warnings: the errors must be the same, in the same order,
// and the warnings may only grow. Then inference writes its types into the model, which
// must still encode and decode.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "onyx/check/checker.h"
#include "onyx/infer/infer.h"
#include "onyx/serde/model_io.h"

namespace onyx::fuzz {
namespace {

[[noreturn]] void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_checker: %s\n  %s\n", what, detail.c_str());
  __builtin_trap();
}

bool wellFormedRule(std::string_view rule) {
  if (rule.size() < 2 || (rule[0] != 'R' && rule[0] != 'X')) return false;
  int number = 0;
  for (char c : rule.substr(1)) {
    if (c < '0' || c > '9' || number > 1000) return false;
    number = number * 10 + (c - '0');
  }
  if (number < 1 || rule[1] == '0') return false;
  return rule[0] == 'X' || number <= 105;
}

void expectWellFormed(const Diagnostics& diagnostics) {
  size_t errors = 0;
  for (const Diagnostic& diagnostic : diagnostics.all()) {
    if (!wellFormedRule(diagnostic.rule)) broken("a malformed rule id", diagnostic.toString());
    if (diagnostic.message.empty()) broken("a diagnostic without a message", diagnostic.toString());
    std::string line = diagnostic.toString();
    if (line.find('\n') != std::string::npos || line.find('\r') != std::string::npos) {
      broken("a diagnostic on more than one line", line);
    }
    if (diagnostic.severity == Severity::kError) ++errors;
  }
  if (errors != diagnostics.errorCount()) broken("errorCount() disagrees with the list", "");
}

void run(std::string_view bytes) {
  LoadOptions load;
  load.load_external_data = false;
  Result<Model> model = parseModel(bytes, nullptr, load);
  if (!model) return;

  CheckOptions full;
  full.more_rules = checkInferredTypes;
  Diagnostics plain = checkModel(*model, full);
  expectWellFormed(plain);
  CheckOptions style = full;
  style.name_style = true;
  Diagnostics styled = checkModel(*model, style);
  expectWellFormed(styled);
  if (styled.errorCount() != plain.errorCount() || styled.all().size() < plain.all().size()) {
    broken("name-style warnings changed the errors",
           std::to_string(plain.errorCount()) + " vs " + std::to_string(styled.errorCount()));
  }
  size_t next = 0;
  for (const Diagnostic& diagnostic : plain.all()) {
    // Every diagnostic of the plain run appears in the styled run, in the same order.
    while (next < styled.all().size() && styled.all()[next].toString() != diagnostic.toString()) {
      ++next;
    }
    if (next == styled.all().size())
      broken("a diagnostic is not reproduced", diagnostic.toString());
    ++next;
  }

  InferResult inferred = inferModel(*model);
  expectWellFormed(inferred.diagnostics);
  Result<std::string> written = serializeModel(*model);
  if (!written) broken("an inferred model does not encode", written.status().toString());
  Result<Model> reread = parseModel(*written, nullptr, load);
  if (!reread) broken("an inferred model does not decode", reread.status().toString());
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
