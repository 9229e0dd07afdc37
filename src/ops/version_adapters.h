// Internal: version adapters that many operators share (OpSchema::step). An adapter that
// only one operator needs lives in that operator's file.
#pragma once

#include "onyx/core/status.h"
#include "ops/node_draft.h"

namespace onyx::ops {

/// Up from a version with the legacy `consumed_inputs` attribute (an in-place hint of
/// opset 1 that later versions dropped): the hint goes; nothing else changes.
Status dropConsumedInputs(NodeDraft& draft);

}  // namespace onyx::ops
