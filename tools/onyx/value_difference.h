// How two values a run gives differ: the largest absolute and relative element differences,
// and whether any element is beyond a tolerance. `onyx optimize --verify` and `onyx compare`
// measure alike.
#pragma once

#include <string>

#include "onyx/eval/evaluator.h"

namespace onyx::tool {

/// An element differs when |a - b| > relative * max(|a|, |b|) + absolute: the absolute floor
/// keeps rounding noise around zero (1e-12 against 0 is "100% relative") from counting.
struct Tolerance {
  double relative = 1e-5;
  double absolute = 1e-7;
};

struct Difference {
  double absolute = 0;
  double relative = 0;
  bool beyond = false;   // some element differs beyond the tolerance
  std::string mismatch;  // set when the two differ in kind, element type, shape or strings
};

/// Sequences, maps and optionals are not compared (no difference). NaN equals NaN; a NaN
/// against a number is an infinite difference.
Difference differenceOf(const EvalValue& first, const EvalValue& second, Tolerance tolerance);

}  // namespace onyx::tool
