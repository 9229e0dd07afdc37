// R53: a node that calls a model-local function passes at most the inputs and outputs the
// function declares, and only attributes it declares (in attribute or attribute_proto; with
// the default's type where attribute_proto gives one). Fewer inputs and outputs are legal:
// trailing ones are left out, and an attribute the caller leaves out takes the default or is
// omitted (IR.md "Functions").
#include <unordered_map>

#include "check/signature_rules.h"
#include "onyx/core/quote.h"

namespace onyx::check {

namespace {

std::string functionLabel(const Function& callee) {
  return "function " + quoted(callee.nameOrEmpty()) + " of domain " +
         quoted(callee.domainOrEmpty());
}

// "its attributes are alpha, beta" or "it takes no attributes".
std::string declaredAttributes(const Function& callee) {
  size_t count = callee.attribute.size() + callee.attribute_proto.size();
  if (count == 0) return "it takes no attributes";
  constexpr size_t kShown = 16;
  std::string text = "its attributes are ";
  size_t shown = 0;
  auto add = [&](std::string_view name) {
    if (shown > kShown) return;
    if (shown > 0) text += ", ";
    text += shown == kShown ? std::string("...") : quoted(name);
    ++shown;
  };
  for (std::string_view name : callee.attribute) add(name);
  for (const Attribute* declared : callee.attribute_proto) {
    if (declared != nullptr) add(declared->nameOrEmpty());
  }
  return text;
}

bool isInternalSymbol(std::string_view name) {
  return name.size() >= 2 && name[0] == '_' && name[1] == '_';
}

// The function's attribute parameters by name: declared or not, and the default when
// attribute_proto gives one. Scans the lists; a call of a function with many parameters by a
// node with many attributes builds a map instead, so that the rule stays linear.
class Parameters {
 public:
  Parameters(const Function& callee, size_t lookups) : callee_(callee) {
    constexpr size_t kScanLimit = 4096;
    size_t count = callee.attribute.size() + callee.attribute_proto.size();
    if (count * lookups <= kScanLimit) return;
    for (const Attribute* parameter : callee.attribute_proto) {
      if (parameter != nullptr) by_name_.emplace(parameter->nameOrEmpty(), parameter);
    }
    for (std::string_view name : callee.attribute) by_name_[name] = nullptr;
    mapped_ = true;
  }

  /// Whether `name` is a parameter; `with_default` is its attribute_proto entry, if any.
  bool find(std::string_view name, const Attribute*& with_default) const {
    with_default = nullptr;
    if (mapped_) {
      auto at = by_name_.find(name);
      if (at == by_name_.end()) return false;
      with_default = at->second;
      return true;
    }
    for (std::string_view parameter : callee_.attribute) {
      if (parameter == name) return true;
    }
    for (const Attribute* parameter : callee_.attribute_proto) {
      if (parameter == nullptr || parameter->nameOrEmpty() != name) continue;
      with_default = parameter;
      return true;
    }
    return false;
  }

 private:
  const Function& callee_;
  std::unordered_map<std::string_view, const Attribute*> by_name_;
  bool mapped_ = false;
};

}  // namespace

void checkFunctionCall(const Node& node, const Function& callee, const LazyPath& path,
                       Diagnostics& out) {
  if (node.inputCount() > callee.inputs.size()) {
    out.error("R53", path(),
              "calls " + functionLabel(callee) + ", which takes " +
                  countText(callee.inputs.size(), "input", "inputs") + "; this node passes " +
                  std::to_string(node.inputCount()));
  }
  if (node.outputCount() > callee.outputs.size()) {
    out.error("R53", path(),
              "calls " + functionLabel(callee) + ", which gives " +
                  countText(callee.outputs.size(), "output", "outputs") + "; this node has " +
                  std::to_string(node.outputCount()));
  }
  if (node.attributes.size() == 0) return;
  Parameters parameters(callee, node.attributes.size());
  for (size_t a = 0; a < node.attributes.size(); ++a) {
    const Attribute* attribute = node.attributes[a];
    if (attribute == nullptr) continue;
    std::string_view name = attribute->nameOrEmpty();
    if (name.empty() || isInternalSymbol(name)) continue;  // R55; implementation symbols
    auto where = [&] {
      std::string text = path();
      appendSegment(text, "attribute", a, name);
      return text;
    };
    const Attribute* with_default = nullptr;
    if (!parameters.find(name, with_default)) {
      out.error("R53", where(),
                functionLabel(callee) + " has no attribute " + quoted(name) + "; " +
                    declaredAttributes(callee));
      continue;
    }
    if (with_default == nullptr || !with_default->type || !attribute->type) continue;
    if (*with_default->type == *attribute->type) continue;
    out.error("R53", where(),
              functionLabel(callee) + " gives " + quoted(name) + " a default of type " +
                  attributeKindLabel(with_default->kind()) + ", but this attribute has type " +
                  attributeKindLabel(attribute->kind()));
  }
}

}  // namespace onyx::check
