#include "check/place.h"

namespace onyx::check {

std::string GraphPlace::path() const {
  if (outer == nullptr) return root;
  std::string text = outer->attributePath(owner_index, *owner, attribute_index);
  if (list_index) {
    appendSegment(text, "graphs", *list_index, name);
  } else {
    text += ".g";
  }
  return text;
}

std::string GraphPlace::nodePath(size_t index, const Node& node) const {
  std::string text = path();
  appendSegment(text, "node", index, node.nameOrEmpty());
  return text;
}

std::string GraphPlace::attributePath(size_t index, const Node& node, size_t a) const {
  std::string text = nodePath(index, node);
  const Attribute* held = a < node.attributes.size() ? node.attributes[a] : nullptr;
  appendSegment(text, "attribute", a, held != nullptr ? held->nameOrEmpty() : std::string_view());
  return text;
}

}  // namespace onyx::check
