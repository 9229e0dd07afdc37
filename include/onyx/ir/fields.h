// onyx/ir/fields.h — how proto2 field values are held in the in-memory IR.
//
// proto2 remembers whether an optional field was set, even to its default, and writes it
// back only if it was; the IR keeps that presence (std::optional) so that a model reads
// and writes back byte-identical. Strings are views into the mapped input or the model's
// arena. Fields onyx does not know are kept as raw bytes where they occurred.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "onyx/core/arena.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// An optional string or bytes field: absent, or present (possibly empty). Two words: a
/// present string never has a null data pointer, so null marks absence.
class OptString {
 public:
  OptString() = default;
  OptString(std::nullopt_t) {}      // NOLINT: reads like std::optional
  OptString(std::string_view text)  // NOLINT: a present string converts implicitly
      : view_(text.data() ? text.data() : kEmpty, text.size()) {}
  /// For literals: the IR keeps views, so the text must outlive the model (copy other text
  /// into the model's arena first).
  OptString(const char* text) : OptString(std::string_view(text)) {}  // NOLINT

  bool has_value() const { return view_.data() != nullptr; }
  explicit operator bool() const { return has_value(); }
  std::string_view value() const { return view_; }
  std::string_view operator*() const { return view_; }
  const std::string_view* operator->() const { return &view_; }
  std::string_view value_or(std::string_view fallback) const {
    return has_value() ? view_ : fallback;
  }
  void reset() { view_ = std::string_view(); }
  bool operator==(const OptString& other) const {
    return has_value() == other.has_value() && view_ == other.view_;
  }

 private:
  static constexpr char kEmpty[1] = {0};
  std::string_view view_;
};

/// A field onyx does not know: its number and its complete encoding (key and value),
/// written back verbatim among the known fields in field-number order.
struct UnknownField {
  uint32_t number = 0;
  std::string_view encoded;
};
using UnknownFields = ArenaList<UnknownField>;

/// StringStringEntryProto: metadata, external-data keys, bindings.
struct StringStringEntry {
  OptString key;
  OptString value;
  UnknownFields unknown;
};

/// A repeated scalar field held decoded, with the encoding it arrived in (packed or one
/// key per element) so that it is written back the same way.
template <class T>
struct Repeated {
  ArenaList<T> values;
  bool packed = false;

  size_t size() const { return values.size(); }
  bool empty() const { return values.empty(); }
  const T* begin() const { return values.begin(); }
  const T* end() const { return values.end(); }
  T operator[](size_t i) const { return values[i]; }
};

/// A repeated numeric field of TensorProto kept in its wire form, not decoded at load: a
/// tensor's data costs nothing to load and is written back as the very same bytes.
/// `payload` is the concatenated packed payload (varints for int32/int64/uint64 data,
/// little-endian words for float/double data). When the input used one key per element
/// (legal, if unusual) the elements are re-packed into the arena at load and `packed` is
/// false, so the writer emits one key per element again.
struct PackedData {
  std::string_view payload;
  uint64_t count = 0;
  bool present = false;
  bool packed = true;
  /// Bytes reserved at `payload` when the decoder had to concatenate several occurrences in
  /// the arena (0 when `payload` points into the input).
  size_t arena_capacity = 0;
};

}  // namespace onyx

#pragma GCC visibility pop
