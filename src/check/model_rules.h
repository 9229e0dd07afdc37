// Internal: the rules on ModelProto's own fields — ir_version (R6, R7), opset_import (R8,
// R9, and R10/R12 through readOpsetImports), metadata keys (R13), the graph's presence
// (R14). Sets the context's IR version and the model's imports for the rest of the run.
#pragma once

#include "check/check_context.h"

namespace onyx::check {

void checkModelFields(CheckContext& context);

}  // namespace onyx::check
