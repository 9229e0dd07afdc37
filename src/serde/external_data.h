// Internal: external data at load (resolution) and at save (layout and writing).
#pragma once

#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

namespace onyx::serde {

/// Maps each external data file `tensors` name once, checks each tensor's range in it, and
/// points the tensor's external_bytes at its data.
Status resolveExternalData(Model& model, const std::vector<Tensor*>& tensors);

}  // namespace onyx::serde
