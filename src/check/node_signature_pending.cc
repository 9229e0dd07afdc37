// Placeholder until the operator-signature rules land with the operator schemas: it
// reports nothing.
#include "check/node_signature.h"

namespace onyx::check {

void checkNodeSignature(const Node&, const NodeContext&, const LazyPath&, Diagnostics&) {}

}  // namespace onyx::check
