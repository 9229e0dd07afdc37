// Internal: enum values the decoder set aside. Like protobuf, onyx's decoder keeps an enum
// number the schema does not declare (data_location 7, attribute type 15) among the
// message's unknown fields rather than in the field itself; the rules read it back from
// there to report it.
#pragma once

#include <cstdint>
#include <optional>

#include "onyx/ir/fields.h"

namespace onyx::check {

/// The undeclared value of enum field `number` kept in `unknown` (the last one, when there
/// are several); nullopt when there is none.
std::optional<int64_t> undeclaredEnumValue(const UnknownFields& unknown, uint32_t number);

}  // namespace onyx::check
