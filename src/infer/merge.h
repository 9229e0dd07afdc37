// Internal: combining a declared type with an inferred one.
#pragma once

#include <string>

#include "onyx/ops/inferred_type.h"

namespace onyx::infer {

struct Merged {
  InferredType type;  // the more precise of the two, dimension by dimension
  /// Empty when they agree; else " " or, when one dimension disagrees, " (dimension 2)".
  std::string conflict;
};

/// Declared and inferred types agree when they do not contradict each other: same kind,
/// same element type where both know it, same rank where both know it, same number where
/// both know a dimension's number. Where only one knows, that one wins; a declared symbol
/// is kept over an inferred one (it is the user's name), a number over a symbol.
Merged mergeTypes(const InferredType& declared, const InferredType& inferred, SymbolicDims& dims);

/// `float[N,3]`, `seq(int64[?])`: for messages.
std::string describe(const InferredType& type, SymbolicDims& dims);

}  // namespace onyx::infer
