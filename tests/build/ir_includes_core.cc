// A file of the ir layer that includes its own layer and core, below it: compiles. (So the
// probes that fail, fail for their include and not for how the probe is compiled.)
#include "ir/scope.h"
#include "onyx/core/status.h"
#include "onyx/ir/model.h"
