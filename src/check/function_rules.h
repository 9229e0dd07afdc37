// Internal: model-local functions (R15, R91–R102): their ids, signatures, imports, attribute
// defaults and calls between them, and their bodies through the walker.
#pragma once

#include "check/walker.h"

namespace onyx::check {

/// R92: functions that share an id (onyx/ir/function.h's FunctionId); the first keeps it.
/// Reported before the walk, as the model's own fields are.
void checkFunctionIds(CheckContext& context);

void checkFunctions(CheckContext& context, Walker& walker);

}  // namespace onyx::check
