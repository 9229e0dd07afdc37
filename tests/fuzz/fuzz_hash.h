// The fuzz targets that derive their choices (a target opset, names to pick) from the whole
// input hash it the same way, so that an input replays to the same choices in each.
#pragma once

#include <cstdint>
#include <string_view>

namespace onyx::fuzz {

/// FNV-1a of `bytes`.
inline uint64_t hashOf(std::string_view bytes) {
  uint64_t hash = 1469598103934665603ull;
  for (char byte : bytes) {
    hash ^= static_cast<uint8_t>(byte);
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace onyx::fuzz
