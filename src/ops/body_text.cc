#include "ops/body_text.h"

#include <fmt/format.h>

#include "core/development_checks.h"
#include "onyx/ops/schema_text.h"

namespace onyx::ops::body {

std::string floatText(float value) {
  std::string text = fmt::format("{}", value);
  // "1" would read as an int where a tensor literal is typed by its values elsewhere; a
  // point keeps the text a float everywhere.
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

std::string argumentText(float value) { return fmt::format("{}", value); }
std::string argumentText(double value) { return fmt::format("{}", value); }

std::string substituted(std::string_view pattern, std::span<const std::string> arguments) {
  std::string text;
  text.reserve(pattern.size() + 16 * arguments.size());
  size_t next = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    bool doubled = i + 1 < pattern.size() && pattern[i + 1] == c;
    if ((c == '{' || c == '}') && doubled) {
      text += c;
      ++i;
    } else if (c == '{' && i + 1 < pattern.size() && pattern[i + 1] == '}') {
      ONYX_ASSERT(next < arguments.size() && "a statement has more {} than arguments");
      if (next < arguments.size()) text += arguments[next++];
      ++i;
    } else {
      text += c;
    }
  }
  ONYX_ASSERT(next == arguments.size() && "a statement has fewer {} than arguments");
  return text;
}

Status refuse(std::string_view why) { return Status(ErrorCode::kUnsupported, std::string(why)); }

Result<int32_t> requireElementType(const FunctionBodyContext& context, size_t index) {
  std::optional<int32_t> type = context.inputElementType(index);
  if (!type) {
    const FormalParameter* formal = context.schema.inputAt(index);
    return refuse(
        fmt::format("the body depends on the element type of input {} ({}), which "
                    "is not known",
                    index, formal != nullptr ? formal->name : "?"));
  }
  return *type;
}

BodyText::BodyText(const FunctionBodyContext& context, std::string_view op_name,
                   std::string_view domain)
    : context_(context), op_name_(op_name), domain_(domain) {
  import(domain, context.opset);
  for (const FormalParameter& formal : context.schema.inputs) inputs_.emplace_back(formal.name);
  for (const FormalParameter& formal : context.schema.outputs) outputs_.emplace_back(formal.name);
}

BodyText& BodyText::parameters(std::vector<std::string> inputs, std::vector<std::string> outputs) {
  inputs_ = std::move(inputs);
  outputs_ = std::move(outputs);
  return *this;
}

BodyText& BodyText::import(std::string_view domain, int64_t version) {
  if (!imports_.empty()) imports_ += ", ";
  imports_ += fmt::format("\"{}\" : {}", domain, version);
  return *this;
}

BodyText& BodyText::add(std::string_view nodes) {
  nodes_ += "  ";
  nodes_ += nodes;
  nodes_ += '\n';
  return *this;
}

BodyText& BodyText::scalarInt(std::string_view name, int64_t value) {
  return addf("{} = Constant <value = int64 {{{}}}> ()", name, value);
}

BodyText& BodyText::ints(std::string_view name, std::initializer_list<int64_t> values) {
  return addf("{} = Constant <value = int64[{}] {{{}}}> ()", name, values.size(),
              fmt::format("{}", fmt::join(values, ", ")));
}

BodyText& BodyText::scalarFloat(std::string_view name, float value) {
  return addf("{} = Constant <value = float {{{}}}> ()", name, floatText(value));
}

BodyText& BodyText::floats(std::string_view name, std::initializer_list<float> values) {
  std::string list;
  for (float value : values) {
    if (!list.empty()) list += ", ";
    list += floatText(value);
  }
  return addf("{} = Constant <value = float[{}] {{{}}}> ()", name, values.size(), list);
}

std::string BodyText::finish() const {
  const OpSchema& schema = context_.schema;
  std::string text =
      fmt::format("<domain: \"{}\", opset_import: [{}]>\n{}", domain_, imports_, op_name_);
  if (schema.attributes.size() != 0) {
    text += " <";
    bool first = true;
    for (const AttributeSpec& attribute : schema.attributes) {
      if (!first) text += ", ";
      first = false;
      text += attribute.name;
      if (attribute.has_default) {
        text += fmt::format(": {} = {}", attributeKindName(attribute.kind),
                            attributeDefaultText(attribute));
      }
    }
    text += ">";
  }
  text += fmt::format(" ({}) => ({})\n{{\n{}}}\n", fmt::join(inputs_, ", "),
                      fmt::join(outputs_, ", "), nodes_);
  return text;
}

}  // namespace onyx::ops::body
