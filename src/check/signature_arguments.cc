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
  if (inputs < schema.minInputs() || inputs > schema.maxInputs()) {
    site.out.error("R43", site.path(),
                   site.label() + " takes " +
                       boundsText(schema.minInputs(), schema.maxInputs(), "input", "inputs") +
                       "; this node has " + hasText(inputs));
  }
  size_t outputs = node.outputCount();
  if (!schema.allowsOutputCount(outputs)) {
    std::string accepted =
        schema.output_counts.size() != 0 && outputs >= schema.minOutputs() &&
                outputs <= schema.maxOutputs()
            ? listedCounts(schema.output_counts) + " outputs"
            : boundsText(schema.minOutputs(), schema.maxOutputs(), "output", "outputs");
    site.out.error("R44", site.path(),
                   site.label() + " gives " + accepted + "; this node has " + hasText(outputs));
  }

  // R45: "" stands for a left-out input or output, which only optional parameters allow.
  for (size_t i = 0; i < inputs; ++i) {
    if (node.input(i) != nullptr) continue;
    const FormalParameter* formal = schema.inputAt(i);
    if (formal == nullptr || formal->option != ParameterOption::kSingle) continue;
    site.out.error("R45", site.inputPath(i),
                   "input " + std::to_string(i) + " (" + formal->name +
                       ") is left out (\"\"), but " + site.label() +
                       " requires it; only optional inputs may be left out");
  }
  for (size_t i = 0; i < outputs; ++i) {
    if (node.output(i) != nullptr) continue;
    const FormalParameter* formal = schema.outputAt(i);
    if (formal == nullptr || formal->option != ParameterOption::kSingle) continue;
    site.out.error("R45", site.outputPath(i),
                   "output " + std::to_string(i) + " (" + formal->name +
                       ") is left out (\"\"), but " + site.label() +
                       " always gives it; only optional outputs may be left out");
  }
}

}  // namespace onyx::check
