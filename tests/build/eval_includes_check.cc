// A file of the evaluator that includes the checker's internals, a layer beside it: must not
// compile.
#include "check/opset_imports.h"
