// Internal: model-local functions (R15, R91–R102): their ids, signatures, imports, attribute
// defaults and calls between them, and their bodies through the walker.
#pragma once

#include "check/walker.h"

namespace onyx::check {

void checkFunctions(CheckContext& context, Walker& walker);

}  // namespace onyx::check
