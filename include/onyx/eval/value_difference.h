// onyx/eval/value_difference.h — how two values a run gives differ: the largest absolute and
// relative element differences, and whether any element is beyond a tolerance. `onyx optimize
// --verify`, `onyx compare` and Python's `onyx.compare` measure alike, with this.
#pragma once

#include <string>

#include "onyx/eval/evaluator.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// How far two values may be apart: relative and absolute. A backend test case's outputs
/// (test_case.h) are within it when |actual - expected| <= atol + rtol * |expected|; for
/// differenceOf below, an element differs when |a - b| > rtol * max(|a|, |b|) + atol: the
/// absolute floor keeps rounding noise around zero (1e-12 against 0 is "100% relative") from
/// counting.
struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
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

}  // namespace onyx

#pragma GCC visibility pop
