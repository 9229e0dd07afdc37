#include "check/unknown_enum.h"

#include "wire/reader.h"

namespace onyx::check {

std::optional<int64_t> undeclaredEnumValue(const UnknownFields& unknown, uint32_t number) {
  std::optional<int64_t> found;
  for (const UnknownField& field : unknown) {
    if (field.number != number) continue;
    wire::Reader reader(field.encoded);
    uint32_t field_number = 0;
    wire::WireType wire_type;
    uint64_t value = 0;
    if (!reader.readTag(field_number, wire_type) || wire_type != wire::WireType::kVarint ||
        !reader.readVarint(value)) {
      continue;  // kept for another reason (a wrong wire type), not an enum value
    }
    // Enums are int32 on the wire, sign-extended to 64 bits when negative.
    found = static_cast<int32_t>(static_cast<uint32_t>(value));
  }
  return found;
}

}  // namespace onyx::check
