#include "onyx/ops/signature_fit.h"

#include "onyx/ir/node.h"

namespace onyx {

size_t NodeSignatureView::inputCount() const { return node_.inputCount(); }

bool NodeSignatureView::hasInput(size_t i) const { return node_.input(i) != nullptr; }

size_t NodeSignatureView::outputCount() const { return node_.outputCount(); }

bool NodeSignatureView::hasOutput(size_t i) const { return node_.output(i) != nullptr; }

size_t NodeSignatureView::attributeCount() const { return node_.attributes.size(); }

std::string_view NodeSignatureView::attributeName(size_t a) const {
  const Attribute* attribute = node_.attributes[a];
  return attribute != nullptr ? attribute->nameOrEmpty() : std::string_view();
}

bool NodeSignatureView::hasAttribute(std::string_view name) const {
  return node_.attribute(name) != nullptr;
}

namespace {

// onnx treats attributes named `__...` as internal symbols of an implementation, outside
// every schema.
bool isInternalSymbol(std::string_view name) { return name.starts_with("__"); }

}  // namespace

std::vector<Misfit> misfitsOf(const OpSchema& schema, const SignatureView& node) {
  std::vector<Misfit> found;
  if (!schema.unchecked_attributes) {
    for (size_t a = 0; a < node.attributeCount(); ++a) {
      std::string_view name = node.attributeName(a);
      if (name.empty() || isInternalSymbol(name)) continue;  // unnamed: R55's
      if (schema.attribute(name) == nullptr) {
        found.push_back({Misfit::Kind::kUndeclaredAttribute, a, nullptr});
      }
    }
  }
  for (const AttributeSpec& spec : schema.attributes) {
    if (spec.required && !node.hasAttribute(spec.name)) {
      found.push_back({Misfit::Kind::kMissingAttribute, 0, &spec});
    }
  }
  size_t inputs = node.inputCount();
  if (inputs < schema.minInputs() || inputs > schema.maxInputs()) {
    found.push_back({Misfit::Kind::kInputCount});
  }
  size_t outputs = node.outputCount();
  if (!schema.allowsOutputCount(outputs)) found.push_back({Misfit::Kind::kOutputCount});
  for (size_t i = 0; i < inputs; ++i) {
    const FormalParameter* formal = schema.inputAt(i);
    if (!node.hasInput(i) && formal != nullptr && formal->option == ParameterOption::kSingle) {
      found.push_back({Misfit::Kind::kOmittedInput, i});
    }
  }
  for (size_t i = 0; i < outputs; ++i) {
    const FormalParameter* formal = schema.outputAt(i);
    if (!node.hasOutput(i) && formal != nullptr && formal->option == ParameterOption::kSingle) {
      found.push_back({Misfit::Kind::kOmittedOutput, i});
    }
  }
  return found;
}

}  // namespace onyx
