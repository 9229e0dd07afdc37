// Internal: protobuf wire bytes built in text order, with each message's key and length put
// in front of it once its end is known.
//
// The text parser writes a message's fields as it reads them and closes the message when it
// ends: closeMessage() inserts the key and the length at the mark where the message began.
// That moves the message's bytes once per level of nesting, which for ONNX (model, graph,
// node, attribute) is a few copies of each byte, and it needs no second pass. Fields that the
// text gives out of field-number order go to side buffers (a BufferStack) and are appended
// where their number puts them.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "text/text_string.h"

namespace onyx::text {

class WireBuffer {
 public:
  enum : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

  void varint(uint64_t value) {
    char bytes[10];
    size_t n = 0;
    while (value >= 0x80) {
      bytes[n++] = static_cast<char>(value | 0x80);
      value >>= 7;
    }
    bytes[n++] = static_cast<char>(value);
    bytes_.append(bytes, n);
  }
  void key(uint32_t field, uint32_t wire_type) {
    varint((static_cast<uint64_t>(field) << 3) | wire_type);
  }
  void fixed32(uint32_t bits) {
    char bytes[4];
    std::memcpy(bytes, &bits, 4);  // little-endian, as on every target onyx builds for
    bytes_.append(bytes, 4);
  }
  void fixed64(uint64_t bits) {
    char bytes[8];
    std::memcpy(bytes, &bits, 8);
    bytes_.append(bytes, 8);
  }

  void varintField(uint32_t field, uint64_t value) {
    key(field, kVarint);
    varint(value);
  }
  /// An int32 or enum field: negative values take ten bytes, as protobuf writes them.
  void int32Field(uint32_t field, int32_t value) {
    varintField(field, static_cast<uint64_t>(static_cast<int64_t>(value)));
  }
  void fixed32Field(uint32_t field, uint32_t bits) {
    key(field, kFixed32);
    fixed32(bits);
  }
  void stringField(uint32_t field, const TextString& text) {
    key(field, kLengthDelimited);
    varint(text.size);
    text.appendTo(bytes_);
  }

  /// Where a message (or a packed field) begins; pass it to closeMessage().
  size_t mark() const { return bytes_.size(); }
  /// Makes the bytes written since `mark` the length-delimited field `field`.
  void closeMessage(uint32_t field, size_t mark);
  /// Appends `body` as the length-delimited field `field`.
  void appendField(uint32_t field, const WireBuffer& body) {
    key(field, kLengthDelimited);
    varint(body.bytes_.size());
    bytes_.append(body.bytes_);
  }
  /// Appends fields written elsewhere.
  void append(const WireBuffer& other) { bytes_.append(other.bytes_); }
  void truncate(size_t mark) { bytes_.resize(mark); }
  void clear() { bytes_.clear(); }

  size_t size() const { return bytes_.size(); }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

/// Side buffers for fields that arrive out of order, lent and returned in stack order (a
/// nested graph borrows above its parent's). Each keeps its capacity, so a large graph's
/// thousands of nodes reuse the same few buffers.
class BufferStack {
 public:
  class Lease {
   public:
    explicit Lease(BufferStack& stack) : stack_(stack), buffer_(stack.take()) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { --stack_.used_; }
    WireBuffer& operator*() { return buffer_; }
    WireBuffer* operator->() { return &buffer_; }

   private:
    BufferStack& stack_;
    WireBuffer& buffer_;
  };

 private:
  WireBuffer& take() {
    if (used_ == buffers_.size()) buffers_.push_back(std::make_unique<WireBuffer>());
    WireBuffer& buffer = *buffers_[used_++];
    buffer.clear();
    return buffer;
  }

  std::vector<std::unique_ptr<WireBuffer>> buffers_;
  size_t used_ = 0;
};

}  // namespace onyx::text
