#include "text/wire_buffer.h"

namespace onyx::text {

void WireBuffer::closeMessage(uint32_t field, size_t mark) {
  uint64_t length = bytes_.size() - mark;
  char header[15];
  size_t n = 0;
  for (uint64_t value = (static_cast<uint64_t>(field) << 3) | kLengthDelimited;;) {
    header[n++] = static_cast<char>(value < 0x80 ? value : (value | 0x80));
    if (value < 0x80) break;
    value >>= 7;
  }
  for (uint64_t value = length;;) {
    header[n++] = static_cast<char>(value < 0x80 ? value : (value | 0x80));
    if (value < 0x80) break;
    value >>= 7;
  }
  bytes_.insert(mark, header, n);
}

}  // namespace onyx::text
