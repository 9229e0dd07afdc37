#include "onyx/core/element_type.h"

#include <limits>
#include <string>

namespace onyx {

std::optional<ElementType> elementTypeFromName(std::string_view name) {
  for (const ElementTypeInfo& row : kElementTypeTable) {
    if (name == row.name || name == row.shortName) return row.type;
  }
  return std::nullopt;
}

std::string_view elementTypeName(int32_t code) {
  if (code == 0) return "UNDEFINED";
  const ElementTypeInfo* info = elementTypeInfo(code);
  return info != nullptr ? info->name : std::string_view("UNKNOWN");
}

Result<uint64_t> packedByteSize(ElementType type, uint64_t count) {
  const ElementTypeInfo* info = elementTypeInfo(type);
  if (info == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "no byte size for element type " +
                                                   std::to_string(static_cast<int32_t>(type)) +
                                                   " (" + std::string(elementTypeName(type)) + ")");
  }
  if (info->bitWidth == 0) {
    return Status(ErrorCode::kInvalidArgument,
                  std::string(info->name) + " elements have no fixed byte size");
  }
  if (info->bitWidth < 8) {
    // Dividing first keeps the rounding up from overflowing.
    const uint64_t perByte = 8u / info->bitWidth;
    return count / perByte + (count % perByte != 0 ? 1 : 0);
  }
  const uint64_t bytesPerElement = info->bitWidth / 8u;
  if (count > std::numeric_limits<uint64_t>::max() / bytesPerElement) {
    return Status(ErrorCode::kLimitExceeded, std::to_string(count) + " " + std::string(info->name) +
                                                 " elements take more than 2^64 bytes");
  }
  return count * bytesPerElement;
}

Result<uint64_t> elementCount(std::span<const int64_t> dims) {
  // A zero anywhere makes the tensor empty however large the other dims are, so zeros are looked
  // for before multiplying: [0, 2^40, 2^40] is a valid, empty shape, not an overflow.
  bool empty = false;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      return Status(ErrorCode::kMalformed, "dims[" + std::to_string(i) + "] is negative (" +
                                               std::to_string(dims[i]) + ")");
    }
    if (dims[i] == 0) empty = true;
  }
  if (empty) return uint64_t{0};
  constexpr uint64_t kLimit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  uint64_t count = 1;
  for (const int64_t dim : dims) {
    const auto factor = static_cast<uint64_t>(dim);
    if (count > kLimit / factor) {
      return Status(ErrorCode::kLimitExceeded,
                    "the product of the dims passes " + std::to_string(kLimit) + " elements");
    }
    count *= factor;
  }
  return count;
}

}  // namespace onyx
