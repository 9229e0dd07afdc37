// A file of the ops layer that includes the inference engine, a layer above it: must not
// compile.
#include "infer/engine.h"
