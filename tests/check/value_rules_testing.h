// Test support for the value rules: building tensors through the IR, and assertions on the
// diagnostics they produce.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

#include "check/value_rules.h"
#include "onyx/core/arena.h"
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"

namespace onyx::check::testing {

inline std::string describe(const Diagnostics& diagnostics) {
  std::string text;
  for (const Diagnostic& d : diagnostics.all()) text += "\n  " + d.toString();
  return text.empty() ? "\n  (nothing)" : text;
}

/// At least one diagnostic, and every one is `rule` with `severity`.
inline ::testing::AssertionResult onlyRule(const Diagnostics& diagnostics, std::string_view rule,
                                           Severity severity = Severity::kError) {
  bool all_match = !diagnostics.all().empty();
  for (const Diagnostic& d : diagnostics.all()) {
    if (d.rule != rule || d.severity != severity) all_match = false;
  }
  if (all_match) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected only " << severityName(severity) << "s of "
                                       << rule << ", got" << describe(diagnostics);
}

/// No diagnostic at all, not even a warning.
inline ::testing::AssertionResult clean(const Diagnostics& diagnostics) {
  if (diagnostics.all().empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected no diagnostics, got" << describe(diagnostics);
}

/// The one diagnostic there is (fails the test when there is not exactly one).
inline Diagnostic single(const Diagnostics& diagnostics) {
  EXPECT_EQ(diagnostics.all().size(), 1u) << describe(diagnostics);
  return diagnostics.all().empty() ? Diagnostic{} : diagnostics.all().front();
}

inline int32_t code(ElementType type) { return static_cast<int32_t>(type); }

/// A tensor of `type` and `dims` with no data, in `arena`.
inline Tensor* makeTensor(Arena& arena, ElementType type, std::initializer_list<int64_t> dims,
                          std::string_view name = {}) {
  auto* tensor = arena.make<Tensor>();
  tensor->data_type = code(type);
  for (int64_t dim : dims) tensor->dims.values.push_back(arena, dim);
  if (!name.empty()) tensor->name = arena.copy(name);
  return tensor;
}

/// `bytes` zero bytes (or `fill` repeated) as raw_data, owned by the arena.
inline void setRaw(Arena& arena, Tensor& tensor, size_t bytes, char fill = 0) {
  tensor.raw_data = arena.copy(std::string(bytes, fill));
}

/// Little-endian int64 values as raw_data.
inline void setRawInt64(Arena& arena, Tensor& tensor, std::initializer_list<int64_t> values) {
  std::string bytes;
  for (int64_t v : values) bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
  tensor.raw_data = arena.copy(bytes);
}

/// A packed varint field holding `values` (int32_data, int64_data, uint64_data).
inline PackedData varints(Arena& arena, std::initializer_list<int64_t> values) {
  std::string payload;
  for (int64_t signed_value : values) {
    auto v = static_cast<uint64_t>(signed_value);
    while (v >= 0x80) {
      payload += static_cast<char>(v | 0x80);
      v >>= 7;
    }
    payload += static_cast<char>(v);
  }
  PackedData data;
  data.payload = arena.copy(payload);
  data.count = values.size();
  data.present = true;
  return data;
}

/// A packed fixed-width field of `count` zero words of `width` bytes (float_data: 4,
/// double_data: 8).
inline PackedData words(Arena& arena, uint64_t count, size_t width) {
  PackedData data;
  data.payload = arena.copy(std::string(static_cast<size_t>(count) * width, '\0'));
  data.count = count;
  data.present = true;
  return data;
}

inline void addEntry(Arena& arena, ArenaList<StringStringEntry>& list, std::string_view key,
                     std::string_view value) {
  StringStringEntry entry;
  entry.key = arena.copy(key);
  entry.value = arena.copy(value);
  list.push_back(arena, entry);
}

}  // namespace onyx::check::testing
