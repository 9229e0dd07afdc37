// Internal: how the value rules write what they found — dims, element types, quoted strings
// from the model, and path segments — so that every message reads the same way.
#pragma once

#include "onyx/core/quote.h"  // quoted(): names and strings in messages

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "onyx/core/element_type.h"

namespace onyx::check {

/// `[2, 3]`; `[]` for a scalar.
std::string formatDims(std::span<const int64_t> dims);

/// The element type as the text syntax spells it (`float`, `int4`), or `data type 99` for a
/// code with no name.
std::string elementTypeLabel(int32_t code);

/// "a float tensor of dims [2, 3]", "an int4 tensor of dims [3]".
std::string describeTensor(const ElementTypeInfo& info, std::span<const int64_t> dims);

/// "a" or "an", whichever reads right before `word` (the element type names only need these).
std::string_view article(std::string_view word);

/// `.field[3]`, or `.field[3](name)` when `name` is not empty, the name escaped as in every
/// path of the checker (place.h).
std::string indexedSegment(std::string_view field, size_t index, std::string_view name = {});

/// "1 entry", "3 entries" and the like.
std::string countOf(uint64_t count, std::string_view singular, std::string_view plural);

}  // namespace onyx::check
