#include "onyx/ir/node.h"

namespace onyx {

const Attribute* Node::attribute(std::string_view attribute_name) const {
  for (const Attribute* a : attributes) {
    if (a->name.value_or("") == attribute_name) return a;
  }
  return nullptr;
}

}  // namespace onyx
