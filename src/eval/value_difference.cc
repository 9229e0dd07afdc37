#include "onyx/eval/value_difference.h"

#include <algorithm>
#include <cmath>

#include "onyx/core/array_elements.h"
#include "onyx/core/element_type.h"

namespace onyx {

Difference differenceOf(const EvalValue& first, const EvalValue& second, Tolerance tolerance) {
  Difference difference;
  if (first.isTensor() != second.isTensor()) {
    difference.mismatch = "one is a tensor, the other not";
    return difference;
  }
  if (!first.isTensor()) return difference;
  const Array& a = first.tensor;
  const Array& b = second.tensor;
  // Two floating-point formats compare by value: a float16 model against its float32 original.
  const ElementTypeInfo* a_info = elementTypeInfo(a.type());
  const ElementTypeInfo* b_info = elementTypeInfo(b.type());
  bool both_real = a_info != nullptr && b_info != nullptr && a_info->isFloatingPoint() &&
                   b_info->isFloatingPoint();
  if ((a.type() != b.type() && !both_real) || a.shape() != b.shape()) {
    difference.mismatch = "the element type or shape differs";
    return difference;
  }
  if (a.isString()) {
    if (a.strings() != b.strings()) difference.mismatch = "strings differ";
    return difference;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    double x = elementAsDouble(a, i);
    double y = elementAsDouble(b, i);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (std::isnan(x) || std::isnan(y)) {
      // Beyond any tolerance (a NaN scale would let it through every comparison below).
      difference.absolute = difference.relative = INFINITY;
      difference.beyond = true;
      continue;
    }
    double gap = std::fabs(x - y);
    if (x == y) gap = 0;  // equal infinities
    difference.absolute = std::max(difference.absolute, gap);
    double scale = std::max(std::fabs(x), std::fabs(y));
    if (gap > 0) difference.relative = std::max(difference.relative, scale > 0 ? gap / scale : gap);
    if (gap > tolerance.rtol * scale + tolerance.atol) difference.beyond = true;
  }
  return difference;
}

}  // namespace onyx
