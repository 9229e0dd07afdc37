// A file of the ir layer that includes the evaluator, a layer above it: must not compile.
#include "onyx/eval/evaluator.h"
