// Internal: where an Array's elements are stored (src/core/buffer_pool.cc).
#pragma once

#include <cstddef>
#include <memory>

namespace onyx::core_internal {

/// The aligned block of at least `bytes` Arrays store their elements in: from the current
/// pool when there is one and the block is large, else new.
std::shared_ptr<std::byte[]> allocateArrayBytes(size_t bytes);

/// Whether allocateArrayBytes(bytes) stays within the current pool's limit (true when there
/// is no pool or no limit).
bool currentPoolAdmits(size_t bytes);

}  // namespace onyx::core_internal
