// Internal to the evaluator: what the kernels built on oneDNN's primitives share.
#pragma once

#include <dnnl.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onyx/core/array.h"

namespace onyx::eval_internal {

/// `array`'s elements as oneDNN's memory objects take them (non-const; it only reads
/// sources).
inline void* handleOf(const Array& array) { return const_cast<std::byte*>(array.bytes().data()); }

/// Scratch kept from call to call: `held` when nothing else holds it, else a new array of
/// `type` and `shape` put there; null when it cannot be made.
inline Array* reusedScratch(std::optional<Array>& held, ElementType type,
                            std::vector<int64_t> shape) {
  if (!held || !held->soleHandle()) {
    Result<Array> made = Array::allocate(type, std::move(shape));
    if (!made) return nullptr;
    held = std::move(*made);
  }
  return &*held;
}

/// Whether oneDNN has only its reference code for a primitive: slower than onyx's own.
inline bool onlyReference(const dnnl::primitive_desc_base& description) {
  return std::string(description.impl_info_str()).starts_with("ref");
}

}  // namespace onyx::eval_internal
