// Internal: a model that does not load, as a diagnostic. The decoder refuses what breaks
// the encoding rules (R1 well-formed protobuf, R2 whole packed fields, R4 bounded nesting)
// and tensors whose dims are negative or overflow (R63); loading external data refuses
// unsafe or missing files (R71) and ranges that do not fit (R72).
#pragma once

#include "onyx/check/diagnostic.h"
#include "onyx/core/status.h"

namespace onyx::check {

/// The diagnostic for a decoding failure.
Diagnostic loadFailure(const Status& status);

/// The diagnostic for a failure to resolve a tensor's external data.
Diagnostic externalDataFailure(const Status& status);

}  // namespace onyx::check
