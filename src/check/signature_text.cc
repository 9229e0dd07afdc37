// How the signature rules name operators, counts, kinds and places in their messages.
#include <cctype>

#include "check/signature_rules.h"
#include "onyx/ops/schema_text.h"

namespace onyx::check {

std::string operatorLabel(std::string_view op_type, std::string_view domain, int64_t opset) {
  std::string text(op_type);
  text += " at ";
  if (!domain.empty()) {
    text += domain;
    text += ' ';
  }
  text += "opset ";
  text += std::to_string(opset);
  return text;
}

std::string countText(size_t count, std::string_view singular, std::string_view plural) {
  if (count == 0) return "no " + std::string(plural);
  return std::to_string(count) + " " + std::string(count == 1 ? singular : plural);
}

std::string boundsText(size_t low, size_t high, std::string_view singular,
                       std::string_view plural) {
  std::string noun(plural);
  if (high == OpSchema::kUnbounded) {
    if (low == 0) return "any number of " + noun;
    return "at least " + countText(low, singular, plural);
  }
  if (low == high) return countText(low, singular, plural);
  std::string joiner = high == low + 1 ? " or " : " to ";
  return std::to_string(low) + joiner + std::to_string(high) + " " + noun;
}

std::string attributeKindLabel(AttributeKind kind) {
  std::string text(attributeKindName(kind));
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string SignatureSite::label() const { return operatorLabel(node.opType(), domain, opset); }

std::string SignatureSite::inputPath(size_t i) const {
  std::string text = path();
  appendSegment(text, "input", i);
  return text;
}

std::string SignatureSite::outputPath(size_t i) const {
  std::string text = path();
  appendSegment(text, "output", i);
  return text;
}

std::string SignatureSite::attributePath(size_t a) const {
  std::string text = path();
  const Attribute* attribute = a < node.attributes.size() ? node.attributes[a] : nullptr;
  appendSegment(text, "attribute", a,
                attribute != nullptr ? attribute->nameOrEmpty() : std::string_view());
  return text;
}

}  // namespace onyx::check
