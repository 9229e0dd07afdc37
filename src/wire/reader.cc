#include "wire/reader.h"

namespace onyx::wire {

std::string Reader::error() const {
  auto number = [&](int i) { return std::to_string(error_numbers_[i]); };
  switch (failure_) {
    case ReadFailure::kNone: return {};
    case ReadFailure::kFixed32PastEnd: return "a 4-byte value runs past the end of its message";
    case ReadFailure::kFixed64PastEnd: return "an 8-byte value runs past the end of its message";
    case ReadFailure::kVarintPastEnd: return "a varint runs past the end of its message";
    case ReadFailure::kVarintTooLong: return "a varint is longer than 10 bytes";
    case ReadFailure::kLengthPadded: return "a length is padded past 5 bytes";
    case ReadFailure::kLengthPastEnd:
      return "length " + number(0) + " runs past the end of its message (" + number(1) +
             " bytes remain)";
    case ReadFailure::kKeyTooLong: return "a field key is longer than 5 bytes";
    case ReadFailure::kFieldNumber: return "invalid field number " + number(0);
    case ReadFailure::kWireType:
      return "invalid wire type " + number(0) + " for field " + number(1);
    case ReadFailure::kGroupsTooDeep: return "groups nest too deeply";
    case ReadFailure::kGroupWithoutEnd: return "group " + number(0) + " has no end";
    case ReadFailure::kGroupEndsAs: return "group " + number(0) + " ends as group " + number(1);
    case ReadFailure::kEndGroupAlone: return "end of group " + number(0) + " without a start";
  }
  return "unknown read failure";
}

bool Reader::readBytesSlow(std::string_view& bytes) {
  uint64_t length;
  const char* start = pos_;
  if (!readVarint(length)) return false;
  if (pos_ - start > 5 && length < (uint64_t{1} << 35)) {
    pos_ = start;
    return fail(ReadFailure::kLengthPadded);
  }
  if (length > remaining()) {
    uint64_t left = remaining();
    pos_ = start;
    return fail(ReadFailure::kLengthPastEnd, length, left);
  }
  bytes = std::string_view(pos_, static_cast<size_t>(length));
  pos_ += length;
  return true;
}

bool Reader::readTagSlow(uint32_t& field, WireType& type) {
  uint64_t key;
  const char* start = pos_;
  if (!readVarint(key)) return false;
  if (pos_ - start > 5) {
    pos_ = start;
    return fail(ReadFailure::kKeyTooLong);
  }
  uint64_t number = key >> 3;
  uint32_t wire = static_cast<uint32_t>(key & 7);
  if (number == 0 || number > kMaxFieldNumber) {
    pos_ = start;
    return fail(ReadFailure::kFieldNumber, number);
  }
  if (wire > 5) {
    pos_ = start;
    return fail(ReadFailure::kWireType, wire, number);
  }
  field = static_cast<uint32_t>(number);
  type = static_cast<WireType>(wire);
  return true;
}

bool Reader::readVarintSlow(uint64_t& value) {
  uint64_t result = 0;
  const char* p = pos_;
  for (int i = 0; i < 10; ++i) {
    if (p == end_) return fail(ReadFailure::kVarintPastEnd);
    uint8_t byte = static_cast<uint8_t>(*p++);
    // Bits past the 64th are dropped, as libprotobuf does, so both readers agree.
    result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if (byte < 0x80) {
      pos_ = p;
      value = result;
      return true;
    }
  }
  return fail(ReadFailure::kVarintTooLong);
}

bool Reader::skipValue(uint32_t field, WireType type, int max_depth) {
  switch (type) {
    case WireType::kVarint: {
      uint64_t ignored;
      return readVarint(ignored);
    }
    case WireType::kFixed64: {
      uint64_t ignored;
      return readFixed64(ignored);
    }
    case WireType::kFixed32: {
      uint32_t ignored;
      return readFixed32(ignored);
    }
    case WireType::kLengthDelimited: {
      std::string_view ignored;
      return readBytes(ignored);
    }
    case WireType::kStartGroup: {
      if (max_depth <= 0) return fail(ReadFailure::kGroupsTooDeep);
      while (true) {
        if (atEnd()) return fail(ReadFailure::kGroupWithoutEnd, field);
        uint32_t inner;
        WireType inner_type;
        if (!readTag(inner, inner_type)) return false;
        if (inner_type == WireType::kEndGroup) {
          if (inner != field) return fail(ReadFailure::kGroupEndsAs, field, inner);
          return true;
        }
        if (!skipValue(inner, inner_type, max_depth - 1)) return false;
      }
    }
    case WireType::kEndGroup: return fail(ReadFailure::kEndGroupAlone, field);
  }
  // A WireType made from a key is always one of the six; anything else is a wire type 6 or 7.
  return fail(ReadFailure::kWireType, static_cast<uint64_t>(type), field);
}

bool countPackedVarints(std::string_view payload, uint64_t& count) {
  uint64_t ends = 0;
  int run = 0;
  for (char c : payload) {
    ++run;
    if (static_cast<uint8_t>(c) < 0x80) {
      ++ends;
      run = 0;
    } else if (run >= 10) {
      return false;
    }
  }
  if (run != 0) return false;  // the last varint is cut off
  count = ends;
  return true;
}

}  // namespace onyx::wire
