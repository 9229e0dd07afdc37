// fuzz_wire_reader — onyx::wire::Reader over arbitrary bytes, checked step by step against
// a deliberately naive reader written from the wire-format rules alone.
//
// Input: the first byte picks how deeply groups may nest (0..15); the rest is read as a
// sequence of fields (tag, value) until the end or the first error, and the same bytes are
// counted as a packed varint payload. Any disagreement traps.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "wire/reader.h"

namespace onyx::fuzz {
namespace {

using wire::Reader;
using wire::WireType;

[[noreturn]] void disagree(const char* what, size_t position) {
  std::fprintf(stderr, "fuzz_wire_reader: %s (at byte %zu)\n", what, position);
  __builtin_trap();
}

// ---- the naive reader -------------------------------------------------------------------

struct NaiveVarint {
  bool ok = false;
  uint64_t value = 0;
  size_t length = 0;
};

// At most ten bytes; bits past the 64th are dropped.
NaiveVarint naiveVarint(const uint8_t* data, size_t size, size_t pos) {
  NaiveVarint result;
  for (size_t i = 0; i < 10; ++i) {
    if (pos + i >= size) return NaiveVarint{};
    uint8_t byte = data[pos + i];
    result.value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if (byte < 0x80) {
      result.ok = true;
      result.length = i + 1;
      return result;
    }
  }
  return NaiveVarint{};
}

struct NaiveTag {
  bool ok = false;
  uint32_t field = 0;
  int type = 0;
  size_t length = 0;
};

// A key is at most 5 bytes long (protobuf reads it as 32 bits and refuses a longer one).
NaiveTag naiveTag(const uint8_t* data, size_t size, size_t pos) {
  NaiveVarint key = naiveVarint(data, size, pos);
  if (!key.ok || key.length > 5) return NaiveTag{};
  uint64_t number = key.value >> 3;
  int type = static_cast<int>(key.value & 7);
  if (number < 1 || number > (uint64_t{1} << 29) - 1 || type > 5) return NaiveTag{};
  return NaiveTag{true, static_cast<uint32_t>(number), type, key.length};
}

// Skips the value of a field whose key ended at `pos`; false when the bytes are malformed.
bool naiveSkip(const uint8_t* data, size_t size, size_t& pos, uint32_t field, int type, int depth) {
  switch (type) {
    case 0: {
      NaiveVarint value = naiveVarint(data, size, pos);
      if (!value.ok) return false;
      pos += value.length;
      return true;
    }
    case 1:
    case 5: {
      size_t width = type == 1 ? 8 : 4;
      if (size - pos < width) return false;
      pos += width;
      return true;
    }
    case 2: {
      // A length takes at most 5 bytes unless its value needs more (2^35 and up).
      NaiveVarint length = naiveVarint(data, size, pos);
      if (!length.ok || (length.length > 5 && length.value < (uint64_t{1} << 35)) ||
          length.value > size - pos - length.length) {
        return false;
      }
      pos += length.length + static_cast<size_t>(length.value);
      return true;
    }
    case 3: {
      if (depth <= 0) return false;
      while (true) {
        if (pos == size) return false;
        NaiveTag tag = naiveTag(data, size, pos);
        if (!tag.ok) return false;
        pos += tag.length;
        if (tag.type == 4) return tag.field == field;
        if (!naiveSkip(data, size, pos, tag.field, tag.type, depth - 1)) return false;
      }
    }
    default: return false;
  }
}

// ---- the checks -------------------------------------------------------------------------

void checkFields(const uint8_t* data, size_t size, int max_depth) {
  const char* begin = reinterpret_cast<const char*>(data);
  Reader reader(begin, begin + size, begin);
  size_t pos = 0;  // the naive reader's position
  while (true) {
    if (reader.atEnd() != (pos == size)) disagree("the readers end at different places", pos);
    if (reader.atEnd()) return;
    uint32_t field = 0;
    WireType type = WireType::kVarint;
    bool ok = reader.readTag(field, type);
    NaiveTag tag = naiveTag(data, size, pos);
    if (ok != tag.ok) disagree(ok ? "onyx accepts a bad tag" : "onyx refuses a good tag", pos);
    if (!ok) {
      if (!reader.failed() || reader.error().empty()) disagree("a failed tag left no error", pos);
      if (reader.offset() != pos) disagree("a failed tag moved the reader", pos);
      if (reader.errorOffset() > size) disagree("an error offset lies past the input", pos);
      return;
    }
    if (field != tag.field || static_cast<int>(type) != tag.type) {
      disagree("the readers decode a tag differently", pos);
    }
    pos += tag.length;
    if (reader.offset() != pos) disagree("the readers consumed different tag lengths", pos);

    size_t before = pos;
    ok = reader.skipValue(field, type, max_depth);
    bool naive_ok = naiveSkip(data, size, pos, field, tag.type, max_depth);
    if (ok != naive_ok) {
      disagree(ok ? "onyx skips a malformed value" : "onyx refuses a well-formed value", before);
    }
    if (!ok) {
      if (!reader.failed() || reader.error().empty())
        disagree("a failed skip left no error", before);
      if (reader.errorOffset() > size) disagree("an error offset lies past the input", before);
      return;
    }
    if (reader.offset() != pos) disagree("the readers skipped different lengths", before);
  }
}

void checkPacked(const uint8_t* data, size_t size) {
  std::string_view payload(reinterpret_cast<const char*>(data), size);
  uint64_t count = 0;
  bool ok = wire::countPackedVarints(payload, count);

  uint64_t naive_count = 0;
  bool naive_ok = true;
  for (size_t pos = 0; pos < size;) {
    NaiveVarint value = naiveVarint(data, size, pos);
    if (!value.ok) {
      naive_ok = false;
      break;
    }
    pos += value.length;
    ++naive_count;
  }
  if (ok != naive_ok) disagree("countPackedVarints judges a payload differently", 0);
  if (!ok) return;
  if (count != naive_count) disagree("countPackedVarints counts differently", 0);

  // A payload countPackedVarints accepted decodes the same through every varint path.
  Reader reader(payload);
  const char* unchecked = payload.data();
  size_t pos = 0;
  for (uint64_t i = 0; i < count; ++i) {
    NaiveVarint expected = naiveVarint(data, size, pos);
    uint64_t value = 0;
    if (!reader.readVarint(value) || value != expected.value) {
      disagree("Reader::readVarint decodes a varint differently", pos);
    }
    uint64_t fast = 0;
    unchecked = wire::decodeVarintUnchecked(unchecked, fast);
    if (fast != expected.value) disagree("decodeVarintUnchecked decodes differently", pos);
    pos += expected.length;
    if (reader.offset() != pos || static_cast<size_t>(unchecked - payload.data()) != pos) {
      disagree("a varint path consumed a different length", pos);
    }
    // varintSize is the length of the shortest encoding of the value.
    int shortest = 1;
    for (uint64_t rest = value >> 7; rest != 0; rest >>= 7) ++shortest;
    if (wire::varintSize(value) != shortest) disagree("varintSize is wrong", pos);
  }
  if (!reader.atEnd()) disagree("Reader::readVarint did not reach the end", pos);
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  int max_depth = data[0] & 15;
  onyx::fuzz::checkFields(data + 1, size - 1, max_depth);
  onyx::fuzz::checkPacked(data + 1, size - 1);
  return 0;
}
