// Placeholders until the value rules land (attribute, tensor, sparse tensor and type rules
// are written on their own branch); they report nothing.
#include "check/value_rules.h"

namespace onyx::check {

void checkAttribute(const Attribute&, const ValueContext&, const std::string&, Diagnostics&) {}
void checkTensor(const Tensor&, const ValueContext&, const std::string&, Diagnostics&) {}
void checkSparseTensor(const SparseTensor&, const ValueContext&, const std::string&, Diagnostics&) {
}
void checkType(const Type&, const ValueContext&, const std::string&, Diagnostics&) {}

}  // namespace onyx::check
