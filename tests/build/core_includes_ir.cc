// A file of the core layer that includes the IR, a layer above it: must not compile.
#include "onyx/ir/model.h"
