// R43, R44, R45: how many inputs and outputs a node passes, and which it leaves out.
#include "check/signature_rules.h"

namespace onyx::check {

namespace {

// "1 or 3", "1, 3 or 5".
std::string listedCounts(std::initializer_list<uint8_t> counts) {
  std::string text;
  size_t i = 0;
  for (uint8_t count : counts) {
    if (i > 0) text += i + 1 == counts.size() ? " or " : ", ";
    text += std::to_string(count);
    ++i;
  }
  return text;
}

std::string hasText(size_t count) {
  return count == 0 ? std::string("none") : std::to_string(count);
}

}  // namespace

void checkArguments(const SignatureSite& site) {
  const Node& node = site.node;
  const OpSchema& schema = site.schema;
  size_t inputs = node.inputCount();
  size_t outputs = node.outputCount();
  for (const Misfit& misfit : site.misfits) {
    switch (misfit.kind) {
      case Misfit::Kind::kInputCount:
        site.out.error("R43", site.path(),
                       site.label() + " takes " +
                           boundsText(schema.minInputs(), schema.maxInputs(), "input", "inputs") +
                           "; this node has " + hasText(inputs));
        break;
      case Misfit::Kind::kOutputCount: {
        std::string accepted =
            schema.output_counts.size() != 0 && outputs >= schema.minOutputs() &&
                    outputs <= schema.maxOutputs()
                ? listedCounts(schema.output_counts) + " outputs"
                : boundsText(schema.minOutputs(), schema.maxOutputs(), "output", "outputs");
        site.out.error("R44", site.path(),
                       site.label() + " gives " + accepted + "; this node has " + hasText(outputs));
        break;
      }
      default: break;
    }
  }
  // R45: "" stands for a left-out input or output, which only optional parameters allow.
  for (const Misfit& misfit : site.misfits) {
    if (misfit.kind == Misfit::Kind::kOmittedInput) {
      site.out.error("R45", site.inputPath(misfit.index),
                     "input " + std::to_string(misfit.index) + " (" +
                         schema.inputAt(misfit.index)->name + ") is left out (\"\"), but " +
                         site.label() + " requires it; only optional inputs may be left out");
    } else if (misfit.kind == Misfit::Kind::kOmittedOutput) {
      site.out.error("R45", site.outputPath(misfit.index),
                     "output " + std::to_string(misfit.index) + " (" +
                         schema.outputAt(misfit.index)->name + ") is left out (\"\"), but " +
                         site.label() + " always gives it; only optional outputs may be left out");
    }
  }
}

}  // namespace onyx::check
