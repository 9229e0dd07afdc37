#include "onyx/ir/tensor_array.h"
#include "onyx/ir/editor.h"

#include <cstring>

#include "onyx/core/arena.h"
#include "onyx/ir/tensor_data.h"

namespace onyx {

Result<Array> arrayFromTensor(const Tensor& tensor) {
  auto type = static_cast<ElementType>(tensor.data_type.value_or(0));
  const ElementTypeInfo* info = elementTypeInfo(type);
  if (info == nullptr) {
    return Status(ErrorCode::kInvalidArgument,
                  "unknown data type " + std::to_string(tensor.data_type.value_or(0)));
  }
  std::vector<int64_t> shape(tensor.dims.begin(), tensor.dims.end());
  Result<Array> made = Array::allocate(type, shape);
  if (!made) return made.status();
  Array array = std::move(*made);
  if (type == ElementType::kString) {
    const ArenaList<std::string_view>& strings = tensor.rare().string_data;
    if (strings.size() != array.size()) {
      return Status(ErrorCode::kMalformed, "string_data has " + std::to_string(strings.size()) +
                                               " elements, the dims " +
                                               std::to_string(array.size()));
    }
    for (size_t i = 0; i < array.size(); ++i) {
      array.strings()[i] = std::string(strings[i]);
    }
    return array;
  }
  Result<TensorBytes> raw = rawBytes(tensor);
  if (!raw) return raw.status();
  std::string_view bytes = raw->bytes();
  if (info->bitWidth < 8) {
    Result<uint64_t> packed = packedByteSize(type, array.size());
    if (!packed || *packed != bytes.size()) {
      // The typed field's entries are packed bytes too (as raw_data's): an int4 literal in
      // the text syntax lists bytes of two elements each, not the elements.
      const int per_byte = 8 / info->bitWidth;
      return Status(ErrorCode::kMalformed,
                    "the data holds " + std::to_string(bytes.size()) + " packed bytes; the dims' " +
                        std::to_string(array.size()) + " elements take " +
                        (packed ? std::to_string(*packed) : std::string("more")) + " (" +
                        std::to_string(per_byte) +
                        " to a byte, one byte to each int32_data entry)");
    }
    auto* out = array.data<uint8_t>();
    const auto* in = reinterpret_cast<const uint8_t*>(bytes.data());
    bool is_signed = type == ElementType::kInt4 || type == ElementType::kInt2;
    for (size_t i = 0; i < array.size(); ++i) {
      uint8_t code = unpackSubByte(in, i, type);
      out[i] = is_signed ? static_cast<uint8_t>(signExtendSubByte(code, type)) : code;
    }
    return array;
  }
  if (bytes.size() != array.bytes().size()) {
    return Status(ErrorCode::kMalformed, "the data has " + std::to_string(bytes.size()) +
                                             " bytes, the dims need " +
                                             std::to_string(array.bytes().size()));
  }
  if (!bytes.empty()) std::memcpy(array.bytes().data(), bytes.data(), bytes.size());
  return array;
}

Tensor* GraphEditor::tensorFromArray(const Array& array) const {
  Arena& arena = *arena_;
  Tensor* tensor = arena.make<Tensor>();
  tensor->data_type = static_cast<int32_t>(array.type());
  for (int64_t dim : array.shape()) tensor->dims.values.push_back(arena, dim);
  if (array.isString()) {
    for (const std::string& text : array.strings()) {
      rare(tensor).string_data.push_back(arena, arena.copy(text));
    }
    return tensor;
  }
  const ElementTypeInfo* info = elementTypeInfo(array.type());
  if (info != nullptr && info->bitWidth < 8) {
    Result<uint64_t> packed = packedByteSize(array.type(), array.size());
    size_t bytes = packed ? static_cast<size_t>(*packed) : 0;
    auto* out = static_cast<uint8_t*>(arena.allocate(std::max<size_t>(bytes, 1), 1));
    std::memset(out, 0, bytes);
    uint8_t mask = info->bitWidth == 4 ? 0x0f : 0x03;
    for (size_t i = 0; i < array.size(); ++i) {
      packSubByte(out, i, static_cast<uint8_t>(array.data<uint8_t>()[i] & mask), array.type());
    }
    tensor->raw_data = std::string_view(reinterpret_cast<const char*>(out), bytes);
    return tensor;
  }
  std::span<const std::byte> bytes = array.bytes();
  tensor->raw_data =
      arena.copy(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  return tensor;
}

}  // namespace onyx
