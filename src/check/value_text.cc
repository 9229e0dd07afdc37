#include "check/value_text.h"

#include "check/place.h"

namespace onyx::check {

std::string formatDims(std::span<const int64_t> dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(dims[i]);
  }
  text += ']';
  return text;
}

std::string elementTypeLabel(int32_t code) {
  if (const ElementTypeInfo* info = elementTypeInfo(code)) return std::string(info->shortName);
  if (code == 0) return "UNDEFINED";
  return "data type " + std::to_string(code);
}

std::string_view article(std::string_view word) {
  return !word.empty() && (word[0] == 'i' || word[0] == 'a' || word[0] == 'o') ? "an" : "a";
}

std::string describeTensor(const ElementTypeInfo& info, std::span<const int64_t> dims) {
  std::string text(article(info.shortName));
  text += ' ';
  text += info.shortName;
  text += " tensor of dims ";
  text += formatDims(dims);
  return text;
}

std::string indexedSegment(std::string_view field, size_t index, std::string_view name) {
  std::string segment;
  appendSegment(segment, field, index, name);
  return "." + segment;
}

std::string countOf(uint64_t count, std::string_view singular, std::string_view plural) {
  std::string text = std::to_string(count);
  text += ' ';
  text += count == 1 ? singular : plural;
  return text;
}

}  // namespace onyx::check
