// Internal: protobuf wire format out, in two passes over the same code.
//
// A length-delimited sub-message needs its size before its bytes. Rather than reserve a
// fixed-width slot (which breaks byte identity with other writers) or move bytes around,
// every encoder is written once against a Sink and run twice: a SizeSink records the size
// of each nested message in visiting order, then a ByteSink replays those sizes while it
// emits the bytes. Sizes are 64-bit, so nothing here caps a message at 2 GiB.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/status.h"
#include "wire/reader.h"

namespace onyx::wire {

/// Where a ByteSink sends its bytes.
class Output {
 public:
  virtual ~Output() = default;
  virtual Status write(const char* data, size_t size) = 0;
};

/// Appends to a std::string.
class StringOutput final : public Output {
 public:
  explicit StringOutput(std::string& target) : target_(target) {}
  Status write(const char* data, size_t size) override {
    target_.append(data, size);
    return Status::ok();
  }

 private:
  std::string& target_;
};

inline uint64_t makeTag(uint32_t field, WireType type) {
  return (static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(type);
}

/// First pass: counts bytes and remembers each nested message's size.
class SizeSink {
 public:
  static constexpr bool kWrites = false;

  void varint(uint64_t value) { bytes_ += static_cast<uint64_t>(varintSize(value)); }
  void fixed32(uint32_t) { bytes_ += 4; }
  void fixed64(uint64_t) { bytes_ += 8; }
  void raw(std::string_view bytes) { bytes_ += bytes.size(); }
  void tag(uint32_t field, WireType type) { varint(makeTag(field, type)); }
  void bytesField(uint32_t field, std::string_view bytes) {
    tag(field, WireType::kLengthDelimited);
    varint(bytes.size());
    raw(bytes);
  }

  /// Visits a nested message: `body` encodes its fields into this sink.
  template <class Body>
  void message(uint32_t field, Body&& body) {
    size_t slot = sizes_.size();
    sizes_.push_back(0);
    uint64_t start = bytes_;
    body();
    uint64_t length = bytes_ - start;
    sizes_[slot] = length;
    bytes_ += static_cast<uint64_t>(varintSize(makeTag(field, WireType::kLengthDelimited)) +
                                    varintSize(length));
  }
  /// A packed field whose payload size is known up front.
  void packedHeader(uint32_t field, uint64_t payload_size) {
    tag(field, WireType::kLengthDelimited);
    varint(payload_size);
  }
  /// A bytes field of `size` bytes that `produce(offset, out)` computes slice by slice.
  template <class Produce>
  void producedField(uint32_t field, uint64_t size, Produce&&) {
    tag(field, WireType::kLengthDelimited);
    varint(size);
    bytes_ += size;
  }

  uint64_t bytes() const { return bytes_; }
  std::vector<uint64_t>& sizes() { return sizes_; }

 private:
  uint64_t bytes_ = 0;
  std::vector<uint64_t> sizes_;
};

/// Second pass: writes the bytes, taking nested sizes from the first pass.
class ByteSink {
 public:
  static constexpr bool kWrites = true;

  ByteSink(Output& out, std::vector<uint64_t> sizes) : out_(out), sizes_(std::move(sizes)) {
    buffer_.resize(kBufferBytes);
  }
  ByteSink(const ByteSink&) = delete;
  ByteSink& operator=(const ByteSink&) = delete;

  void varint(uint64_t value) {
    if (kBufferBytes - used_ < 10) flush();
    char* p = buffer_.data() + used_;
    while (value >= 0x80) {
      *p++ = static_cast<char>(value | 0x80);
      value >>= 7;
    }
    *p++ = static_cast<char>(value);
    used_ = static_cast<size_t>(p - buffer_.data());
  }
  void fixed32(uint32_t value) {
    char bytes[4];
    std::memcpy(bytes, &value, 4);
    raw(std::string_view(bytes, 4));
  }
  void fixed64(uint64_t value) {
    char bytes[8];
    std::memcpy(bytes, &value, 8);
    raw(std::string_view(bytes, 8));
  }
  void raw(std::string_view bytes) {
    if (bytes.size() > kBufferBytes - used_) {
      flush();
      // Large payloads (weights) go straight to the output, never through the buffer.
      if (bytes.size() >= kBufferBytes / 2) {
        send(bytes.data(), bytes.size());
        return;
      }
    }
    std::memcpy(buffer_.data() + used_, bytes.data(), bytes.size());
    used_ += bytes.size();
  }
  void tag(uint32_t field, WireType type) { varint(makeTag(field, type)); }
  void bytesField(uint32_t field, std::string_view bytes) {
    tag(field, WireType::kLengthDelimited);
    varint(bytes.size());
    raw(bytes);
  }
  template <class Body>
  void message(uint32_t field, Body&& body) {
    tag(field, WireType::kLengthDelimited);
    varint(next_ < sizes_.size() ? sizes_[next_++] : 0);
    body();
  }
  void packedHeader(uint32_t field, uint64_t payload_size) {
    tag(field, WireType::kLengthDelimited);
    varint(payload_size);
  }
  /// A bytes field of `size` bytes that `produce(offset, std::span<std::byte> out) -> Status`
  /// computes into the buffer one slice at a time: the payload is never whole in memory.
  template <class Produce>
  void producedField(uint32_t field, uint64_t size, Produce&& produce) {
    tag(field, WireType::kLengthDelimited);
    varint(size);
    flush();
    for (uint64_t offset = 0; offset < size && status_.isOk(); offset += kBufferBytes) {
      size_t slice = static_cast<size_t>(std::min<uint64_t>(kBufferBytes, size - offset));
      status_ = produce(offset,
                        std::span<std::byte>(reinterpret_cast<std::byte*>(buffer_.data()), slice));
      if (status_.isOk()) send(buffer_.data(), slice);
    }
  }

  /// Sends what is buffered and returns the first output error, if any.
  Status finish() {
    flush();
    if (status_.isOk() && next_ != sizes_.size())
      status_ = Status(ErrorCode::kInternal, "the two encoding passes visited different messages");
    return status_;
  }
  uint64_t written() const { return written_ + used_; }

 private:
  static constexpr size_t kBufferBytes = 1 << 20;

  void flush() {
    if (used_ == 0) return;
    send(buffer_.data(), used_);
    used_ = 0;
  }
  void send(const char* data, size_t size) {
    written_ += size;
    if (!status_.isOk()) return;
    status_ = out_.write(data, size);
  }

  Output& out_;
  std::vector<uint64_t> sizes_;
  size_t next_ = 0;
  std::vector<char> buffer_;
  size_t used_ = 0;
  uint64_t written_ = 0;
  Status status_;
};

/// Runs `encode(sink)` twice — sizing, then writing — into `out`.
template <class Encode>
Status encodeTwoPass(Output& out, Encode&& encode) {
  SizeSink sizer;
  encode(sizer);
  ByteSink writer(out, std::move(sizer.sizes()));
  encode(writer);
  return writer.finish();
}

}  // namespace onyx::wire
