#include "onyx/wire/reader.h"

namespace onyx::wire {

bool Reader::readBytesSlow(std::string_view& bytes) {
  uint64_t length;
  const char* start = pos_;
  if (!readVarint(length)) return false;
  if (pos_ - start > 5 && length < (uint64_t{1} << 35)) {
    pos_ = start;
    return fail("a length is padded past 5 bytes");
  }
  if (length > remaining()) {
    uint64_t left = remaining();
    pos_ = start;
    return fail("length " + std::to_string(length) + " runs past the end of its message (" +
                std::to_string(left) + " bytes remain)");
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
    return fail("a field key is longer than 5 bytes");
  }
  uint64_t number = key >> 3;
  uint32_t wire = static_cast<uint32_t>(key & 7);
  if (number == 0 || number > kMaxFieldNumber) {
    pos_ = start;
    return fail("invalid field number " + std::to_string(number));
  }
  if (wire > 5) {
    pos_ = start;
    return fail("invalid wire type " + std::to_string(wire) + " for field " +
                std::to_string(number));
  }
  field = static_cast<uint32_t>(number);
  type = static_cast<WireType>(wire);
  return true;
}

bool Reader::readVarintSlow(uint64_t& value) {
  uint64_t result = 0;
  const char* p = pos_;
  for (int i = 0; i < 10; ++i) {
    if (p == end_) return fail("a varint runs past the end of its message");
    uint8_t byte = static_cast<uint8_t>(*p++);
    // Bits past the 64th are dropped, as libprotobuf does, so both readers agree.
    result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if (byte < 0x80) {
      pos_ = p;
      value = result;
      return true;
    }
  }
  return fail("a varint is longer than 10 bytes");
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
      if (max_depth <= 0) return fail("groups nest too deeply", ErrorCode::kLimitExceeded);
      while (true) {
        if (atEnd()) return fail("group " + std::to_string(field) + " has no end");
        uint32_t inner;
        WireType inner_type;
        if (!readTag(inner, inner_type)) return false;
        if (inner_type == WireType::kEndGroup) {
          if (inner != field)
            return fail("group " + std::to_string(field) + " ends as group " +
                        std::to_string(inner));
          return true;
        }
        if (!skipValue(inner, inner_type, max_depth - 1)) return false;
      }
    }
    case WireType::kEndGroup:
      return fail("end of group " + std::to_string(field) + " without a start");
  }
  return fail("invalid wire type");
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
