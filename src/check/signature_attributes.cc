// R47, R48, R49: a node's attributes against those its operator declares (R47 and R49 are
// misfits, onyx/ops/signature_fit.h).
#include "check/signature_rules.h"
#include "onyx/core/quote.h"

namespace onyx::check {

namespace {

// "its attributes are auto_pad, dilations, group" or "it takes no attributes".
std::string declaredAttributes(const OpSchema& schema) {
  if (schema.attributes.size() == 0) return "it takes no attributes";
  constexpr size_t kShown = 16;
  std::string text = "its attributes are ";
  size_t i = 0;
  for (const AttributeSpec& spec : schema.attributes) {
    if (i == kShown) {
      text += ", ...";
      break;
    }
    if (i > 0) text += ", ";
    text += spec.name;
    ++i;
  }
  return text;
}

// The kind the attribute says it has; nullopt when it says nothing usable (R56 reports a
// missing or unknown type, and an untyped attribute of IR 1 with no value has no kind).
std::optional<AttributeKind> statedKind(const Attribute& attribute) {
  if (attribute.type) {
    if (*attribute.type < 0 || *attribute.type > 14) return std::nullopt;
    return static_cast<AttributeKind>(*attribute.type);
  }
  AttributeKind implied = attribute.kind();
  if (implied == AttributeKind::kUndefined) return std::nullopt;
  return implied;
}

}  // namespace

void checkSchemaAttributes(const SignatureSite& site) {
  const Node& node = site.node;
  const OpSchema& schema = site.schema;
  // The undeclared attributes come first among the misfits, in the node's order.
  auto undeclared = site.misfits.begin();
  for (size_t a = 0; a < node.attributes.size(); ++a) {
    const Attribute* attribute = node.attributes[a];
    if (attribute == nullptr) continue;
    std::string_view name = attribute->nameOrEmpty();
    if (undeclared != site.misfits.end() &&
        undeclared->kind == Misfit::Kind::kUndeclaredAttribute && undeclared->index == a) {
      ++undeclared;
      site.out.error(
          "R47", site.attributePath(a),
          site.label() + " has no attribute " + quoted(name) + "; " + declaredAttributes(schema));
      continue;
    }
    const AttributeSpec* spec = name.empty() ? nullptr : schema.attribute(name);
    if (spec == nullptr) continue;  // unnamed (R55), or outside every signature
    // A reference (in a function body) states the kind of the value it stands for.
    std::optional<AttributeKind> kind = statedKind(*attribute);
    if (kind && *kind != spec->kind) {
      site.out.error("R48", site.attributePath(a),
                     site.label() + " declares " + quoted(name) + " as " +
                         attributeKindLabel(spec->kind) + ", but this attribute has type " +
                         attributeKindLabel(*kind));
    }
  }
  for (const Misfit& misfit : site.misfits) {
    if (misfit.kind != Misfit::Kind::kMissingAttribute) continue;
    site.out.error("R49", site.path(),
                   site.label() + " requires attribute " + quoted(misfit.spec->name) + " (" +
                       attributeKindLabel(misfit.spec->kind) + "), which this node does not have");
  }
}

}  // namespace onyx::check
