// Internal: a model that does not load, as a diagnostic. The decoder refuses what breaks
// the encoding rules (R1 well-formed protobuf, R2 whole packed fields, R4 bounded nesting)
// and tensors whose dims are negative or overflow (R63). (A refusal to load external data is
// not reported as such: the value rules judge each external tensor, R70–R74.)
#pragma once

#include "onyx/core/diagnostic.h"
#include "onyx/core/status.h"

namespace onyx::check {

/// The diagnostic for a decoding failure.
Diagnostic loadFailure(const Status& status);

}  // namespace onyx::check
