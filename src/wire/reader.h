// Internal: a forward reader of protobuf wire format over [begin, end).
//
// Zero-copy: length-delimited fields come back as views into the input. Every length is
// read as 64 bits and compared with the bytes that remain before it is trusted, so a
// crafted length can neither run past the buffer nor be narrowed into a different value.
// On failure a reader remembers what went wrong and where (the byte offset from the
// start of the whole input); callers turn that into a Status and add the field path.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "onyx/core/status.h"

namespace onyx::wire {

enum class WireType : uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

/// The largest field number protobuf allows (2^29 - 1).
inline constexpr uint32_t kMaxFieldNumber = (1u << 29) - 1;

/// What made a read fail. A reader keeps the kind and its numbers, not a message: readers
/// are made and copied for every message of a model, and a string member made each of
/// those a call and, on copy, a store-forwarding stall.
enum class ReadFailure : uint8_t {
  kNone,
  kFixed32PastEnd,
  kFixed64PastEnd,
  kVarintPastEnd,
  kVarintTooLong,
  kLengthPadded,
  kLengthPastEnd,  // numbers: the length, the bytes that remain
  kKeyTooLong,
  kFieldNumber,  // number: the field number
  kWireType,     // numbers: the wire type, the field number
  kGroupsTooDeep,
  kGroupWithoutEnd,  // number: the group's field
  kGroupEndsAs,      // numbers: the group's field, the field of the end key
  kEndGroupAlone,    // number: the group's field
};

class Reader {
 public:
  /// `origin` is the first byte of the whole input; offsets in errors count from it.
  Reader(const char* begin, const char* end, const char* origin)
      : pos_(begin), end_(end), origin_(origin) {}
  explicit Reader(std::string_view bytes)
      : pos_(bytes.data()), end_(bytes.data() + bytes.size()), origin_(bytes.data()) {}

  bool atEnd() const { return pos_ == end_; }
  const char* position() const { return pos_; }
  const char* end() const { return end_; }
  const char* origin() const { return origin_; }
  uint64_t offset() const { return static_cast<uint64_t>(pos_ - origin_); }
  uint64_t remaining() const { return static_cast<uint64_t>(end_ - pos_); }

  /// Reads a field key. Field number 0, numbers above 2^29-1, wire types 6 and 7 and keys
  /// longer than 5 bytes (which protobuf reads as 32 bits and refuses) are malformed.
  bool readTag(uint32_t& field, WireType& type) {
    // Fast path: a one-byte key (fields 1-15) with a valid wire type, nearly every key.
    if (pos_ < end_) {
      uint8_t key = static_cast<uint8_t>(*pos_);
      if (key < 0x80 && key >= 8 && (key & 7) <= 5) {
        ++pos_;
        field = key >> 3;
        type = static_cast<WireType>(key & 7);
        return true;
      }
    }
    return readTagSlow(field, type);
  }

  bool readVarint(uint64_t& value) {
    // Fast path: one byte, the common case for tags and small numbers.
    if (pos_ < end_ && static_cast<uint8_t>(*pos_) < 0x80) {
      value = static_cast<uint8_t>(*pos_++);
      return true;
    }
    return readVarintSlow(value);
  }

  bool readFixed32(uint32_t& value) {
    if (remaining() < 4) return fail(ReadFailure::kFixed32PastEnd);
    std::memcpy(&value, pos_, 4);  // the wire is little-endian, as is every target onyx builds for
    pos_ += 4;
    return true;
  }
  bool readFixed64(uint64_t& value) {
    if (remaining() < 8) return fail(ReadFailure::kFixed64PastEnd);
    std::memcpy(&value, pos_, 8);
    pos_ += 8;
    return true;
  }

  /// Asks the CPU for the bytes a little way ahead. A scan that reads only keys and lengths
  /// touches one cache line in several, each found from the last, so the CPU cannot run
  /// ahead by itself; fetching ahead keeps the lines coming (it halves a large graph's
  /// scan).
  void prefetchAhead() const {
    constexpr size_t kAhead = 1024;
    if (remaining() > kAhead + 64) {
      __builtin_prefetch(pos_ + kAhead);
      __builtin_prefetch(pos_ + kAhead + 64);
    }
  }

  /// Moves to `position`, a place in this reader's bytes known to start a field or value:
  /// on past items a scan of the same bytes met, or back to read a value again.
  void moveTo(const char* position) { pos_ = position; }

  /// Reads a length prefix and the bytes it covers. Lengths are 64-bit (protobuf's stop at
  /// 2 GiB), but a length padded past the 5 bytes protobuf allows is refused as it is there.
  bool readBytes(std::string_view& bytes) {
    // Fast path: a one-byte length that fits, as for most names.
    if (pos_ < end_) {
      uint8_t length = static_cast<uint8_t>(*pos_);
      if (length < 0x80 && length < end_ - pos_) {
        bytes = std::string_view(pos_ + 1, length);
        pos_ += 1 + length;
        return true;
      }
    }
    return readBytesSlow(bytes);
  }

 private:
  bool readTagSlow(uint32_t& field, WireType& type);
  bool readBytesSlow(std::string_view& bytes);

 public:
  /// Skips the value of a field whose key was just read. Groups are skipped by
  /// matching their end key, at most `max_depth` groups deep.
  bool skipValue(uint32_t field, WireType type, int max_depth);

  /// Records a failure at the current position (the first only); always returns false.
  bool fail(ReadFailure failure, uint64_t first = 0, uint64_t second = 0) {
    if (failure_ == ReadFailure::kNone) {
      failure_ = failure;
      error_offset_ = offset();
      error_numbers_[0] = first;
      error_numbers_[1] = second;
    }
    return false;
  }
  bool failed() const { return failure_ != ReadFailure::kNone; }
  /// The failure in words; empty when there is none.
  std::string error() const;
  uint64_t errorOffset() const { return error_offset_; }
  /// kMalformed, or kLimitExceeded for groups nested past the limit.
  ErrorCode errorCode() const {
    return failure_ == ReadFailure::kGroupsTooDeep ? ErrorCode::kLimitExceeded
                                                   : ErrorCode::kMalformed;
  }

 private:
  bool readVarintSlow(uint64_t& value);

  const char* pos_;
  const char* end_;
  const char* origin_;
  uint64_t error_offset_ = 0;
  uint64_t error_numbers_[2] = {0, 0};
  ReadFailure failure_ = ReadFailure::kNone;
};
static_assert(std::is_trivially_copyable_v<Reader>);

/// Bytes a value takes as a varint (1 to 10).
inline int varintSize(uint64_t value) {
  int bits = 64 - __builtin_clzll(value | 1);
  return (bits + 6) / 7;
}

/// Decodes a varint from a buffer already known to be well formed (for example packed data
/// validated at load). Returns the position after it.
inline const char* decodeVarintUnchecked(const char* p, uint64_t& value) {
  uint64_t result = 0;
  int shift = 0;
  while (true) {
    uint8_t byte = static_cast<uint8_t>(*p++);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) break;
    shift += 7;
  }
  value = result;
  return p;
}

/// Counts the varints in a packed payload and checks that it holds only whole varints of at
/// most 10 bytes. Returns false when the payload is malformed.
bool countPackedVarints(std::string_view payload, uint64_t& count);

}  // namespace onyx::wire
