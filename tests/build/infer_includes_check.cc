// A file of the inference layer that includes the checker, a layer beside it (inference
// quotes names and normalises domains through core and ir, not through the checker): must not
// compile.
#include "onyx/check/checker.h"
