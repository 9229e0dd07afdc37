// The conversions of a value back to its declared form (value_form.h).
#include "eval/layout/value_form.h"

#include "eval/kernels/halves_as_floats.h"
#include "eval/layout/channels_last_arrays.h"

namespace onyx::eval_internal {

void toDeclaredLayout(EvalValue& value, Layout from) {
  if (from == Layout::kChannelsLast && value.isTensor()) {
    value.tensor = channelsFirst(value.tensor);
  }
}

void toExactPrecision(EvalValue& value, Precision from, const KernelContext* ctx) {
  if (from == Precision::kFloatForHalf && value.isTensor()) {
    value.tensor = roundedToHalves(value.tensor, ctx);
  }
}

}  // namespace onyx::eval_internal
