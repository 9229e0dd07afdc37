#include "onyx/eval/array.h"

#include <cstring>
#include <new>

#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_data.h"

namespace onyx {

namespace {

// Kernels vectorise: 64-byte alignment lets them use aligned loads on every CPU.
constexpr std::align_val_t kAlignment{64};

std::shared_ptr<std::byte[]> allocateBytes(size_t bytes) {
  auto* memory = static_cast<std::byte*>(::operator new(std::max<size_t>(bytes, 1), kAlignment));
  return std::shared_ptr<std::byte[]>(
      memory, [](std::byte* pointer) { ::operator delete(pointer, kAlignment); });
}

size_t countOf(const std::vector<int64_t>& shape) {
  size_t count = 1;
  for (int64_t dim : shape) count *= static_cast<size_t>(dim);
  return count;
}

}  // namespace

size_t arrayElementBytes(ElementType type) {
  if (type == ElementType::kString) return 0;
  const ElementTypeInfo* info = elementTypeInfo(type);
  if (info == nullptr) return 0;
  if (info->bitWidth < 8) return 1;
  return info->bitWidth / 8;
}

Array::Array(ElementType type, std::vector<int64_t> shape)
    : type_(type), shape_(std::move(shape)), size_(countOf(shape_)) {
  if (type_ == ElementType::kString) {
    strings_ = std::make_shared<std::vector<std::string>>(size_);
  } else {
    bytes_ = allocateBytes(size_ * arrayElementBytes(type_));
  }
}

Result<Array> Array::allocate(ElementType type, std::vector<int64_t> shape, uint64_t max_bytes) {
  for (int64_t dim : shape) {
    if (dim < 0) return Status(ErrorCode::kInvalidArgument, "a negative dimension");
  }
  Result<uint64_t> count = elementCount(shape);
  if (!count) return count.status();
  uint64_t width = type == ElementType::kString ? sizeof(std::string) : arrayElementBytes(type);
  if (width == 0 && type != ElementType::kString) {
    return Status(ErrorCode::kInvalidArgument, "unknown element type");
  }
  if (*count != 0 && (*count > max_bytes / width)) {
    return Status(ErrorCode::kLimitExceeded,
                  "an array of " + std::to_string(*count) + " elements is larger than the limit");
  }
  return Array(type, std::move(shape));
}

Array Array::reshaped(std::vector<int64_t> shape) const {
  Array view = *this;
  view.shape_ = std::move(shape);
  return view;
}

Array Array::clone() const {
  Array copy(type_, shape_);
  if (isString()) {
    copy.strings() = strings();
  } else {
    std::memcpy(copy.bytes_.get(), bytes_.get(), size_ * arrayElementBytes(type_));
  }
  return copy;
}

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
    if (tensor.string_data.size() != array.size()) {
      return Status(ErrorCode::kMalformed, "string_data has " +
                                               std::to_string(tensor.string_data.size()) +
                                               " elements, the dims " + std::to_string(array.size()));
    }
    for (size_t i = 0; i < array.size(); ++i) {
      array.strings()[i] = std::string(tensor.string_data[i]);
    }
    return array;
  }
  Result<TensorBytes> raw = rawBytes(tensor);
  if (!raw) return raw.status();
  std::string_view bytes = raw->bytes();
  if (info->bitWidth < 8) {
    Result<uint64_t> packed = packedByteSize(type, array.size());
    if (!packed || *packed != bytes.size()) {
      return Status(ErrorCode::kMalformed, "the data does not hold the dims' element count");
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

}  // namespace onyx
