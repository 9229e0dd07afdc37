// Internal: the rules for a tensor stored in an external file (R70–R74), called by
// checkTensor for every tensor whose data_location is EXTERNAL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "check/value_rules.h"

namespace onyx::check {

/// `expected_bytes` is the size the tensor's data must have; nullopt when its type or dims
/// do not say (those are reported by the tensor rules), and always for STRING.
void checkExternalData(const Tensor& tensor, std::optional<uint64_t> expected_bytes,
                       const ValueContext& context, const std::string& path, Diagnostics& out);

}  // namespace onyx::check
