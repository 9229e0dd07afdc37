// Schemas in words: see onyx/ops/schema_text.h.
#include "onyx/ops/schema_text.h"

#include <fmt/format.h>

#include "onyx/core/element_type.h"
#include "text/text_writer.h"

namespace onyx {

std::vector<std::string> typeSetNames(const TypeSet& set) {
  struct Form {
    uint32_t bits;
    const char* pattern;  // {} is the element type
  };
  const Form forms[] = {
      {set.tensor, "tensor({})"},
      {set.sequence, "seq(tensor({}))"},
      {set.optional_tensor, "optional(tensor({}))"},
      {set.optional_sequence, "optional(seq(tensor({})))"},
      {set.string_map, "map(string, {})"},
      {set.int64_map, "map(int64, {})"},
      {set.string_map_sequence, "seq(map(string, {}))"},
      {set.int64_map_sequence, "seq(map(int64, {}))"},
  };
  std::vector<std::string> names;
  for (const Form& form : forms) {
    for (int32_t code = 1; code < 32; ++code) {
      if (((form.bits >> code) & 1u) == 0) continue;
      const ElementTypeInfo* info = elementTypeInfo(code);
      std::string element = info ? std::string(info->shortName) : fmt::format("{}", code);
      names.push_back(fmt::format(fmt::runtime(form.pattern), element));
    }
  }
  return names;
}

namespace {

// A string default as the text syntax writes a string literal.
std::string stringLiteral(std::string_view value) {
  std::string out;
  text::TextWriter(out).quoted(value);
  return out;
}

}  // namespace

std::string typeSetText(const TypeSet& set, size_t shown) {
  std::vector<std::string> names = typeSetNames(set);
  std::string text;
  for (size_t i = 0; i < names.size() && i < shown; ++i) {
    if (i > 0) text += ", ";
    text += names[i];
  }
  if (names.size() > shown) text += " and " + std::to_string(names.size() - shown) + " more";
  return text;
}

std::string attributeDefaultText(const AttributeSpec& attribute) {
  if (!attribute.has_default) return {};
  switch (attribute.kind) {
    case AttributeKind::kInt: return fmt::format("{}", attribute.default_int);
    case AttributeKind::kFloat: {
      // The shortest text that reads back as the same float, with a point or an exponent so
      // that the text syntax reads a float, not an int.
      std::string text = fmt::format("{}", attribute.default_float);
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
      return text;
    }
    case AttributeKind::kString: return stringLiteral(attribute.default_string);
    case AttributeKind::kInts: return fmt::format("[{}]", fmt::join(attribute.default_ints, ", "));
    case AttributeKind::kStrings: {
      std::string out = "[";
      for (const char* value : attribute.default_strings) {
        if (out.size() > 1) out += ", ";
        out += stringLiteral(value);
      }
      return out + "]";
    }
    default: return {};
  }
}

std::string_view parameterOptionName(ParameterOption option) {
  switch (option) {
    case ParameterOption::kSingle: return "single";
    case ParameterOption::kOptional: return "optional";
    case ParameterOption::kVariadic: return "variadic";
  }
  return "single";
}

}  // namespace onyx
