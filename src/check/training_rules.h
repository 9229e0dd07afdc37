// Internal: TrainingInfoProto (R16–R21): its graphs, walked as top-level graphs (the
// algorithm graph as the continuation of the main graph), and its bindings of state
// variables to the values that update them.
#pragma once

#include "check/walker.h"

namespace onyx::check {

void checkTraining(CheckContext& context, Walker& walker);

}  // namespace onyx::check
