#include "ops/sequence/sequence_types.h"

#include <string>

#include "onyx/core/element_type.h"
#include "ops/controlflow/subgraph_types.h"

namespace onyx::ops {

namespace {

std::string elementName(int32_t code) {
  const ElementTypeInfo* info = elementTypeInfo(code);
  return info != nullptr ? std::string(info->shortName) : "type " + std::to_string(code);
}

}  // namespace

bool mergeElementInto(InferenceContext& ctx, InferredType& element, const InferredType& type,
                      std::string_view what) {
  if (!type.isKnown()) {
    element = withoutShape(element);
    return true;
  }
  if (!element.isKnown()) {
    element = type;
    return true;
  }
  if (element.kind != type.kind) {
    ctx.fail(std::string(what) + " is not of the sequence's kind of element");
    return false;
  }
  if (element.elem_type != 0 && type.elem_type != 0 && element.elem_type != type.elem_type) {
    ctx.fail(std::string(what) + " has elements of " + elementName(type.elem_type) +
             ", the sequence " + elementName(element.elem_type));
    return false;
  }
  element = unionOfTypes(ctx.dims(), element, type);
  return true;
}

}  // namespace onyx::ops
