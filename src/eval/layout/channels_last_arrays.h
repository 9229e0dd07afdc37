// Internal to the evaluator: an array copied between the two layouts of an image, channels
// first (N, C, H, W, onyx's) and channels last (N, H, W, C, oneDNN's fast one), for the places
// where a value crosses from one to the other (engine/layout_plan.h says where values stay).
#pragma once

#include "onyx/core/array.h"

namespace onyx::eval_internal {

/// The channels-first (N, C, H, W) copy of a channels-last (N, H, W, C) array, and the
/// other way, of elements of any fixed size (float, float16, bytes).
Array channelsFirst(const Array& channels_last);
Array channelsLast(const Array& channels_first);

}  // namespace onyx::eval_internal
