// Internal: the FLOAT loops of Add, Sub, Mul and Div (elementwise::FloatBinaryLoops), compiled
// to vectorize (float_arithmetic.cc). Each computes every element as the general loop does,
// so a kernel gives the same bits whichever it runs. No pointer is restrict: the output may be
// an input (in place), which g++'s alias check at the loop's entry lets through vectorized.
#pragma once

#include "ops/lib/elementwise_kernels.h"

namespace onyx::ops::float_arithmetic {

extern const elementwise::FloatBinaryLoops kAdd;
extern const elementwise::FloatBinaryLoops kSub;
extern const elementwise::FloatBinaryLoops kMul;
extern const elementwise::FloatBinaryLoops kDiv;

}  // namespace onyx::ops::float_arithmetic
