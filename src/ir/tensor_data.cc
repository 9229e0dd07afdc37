#include "onyx/ir/tensor_data.h"

#include <cstring>

#include "onyx/core/element_type.h"
#include "wire/reader.h"

namespace onyx {

TensorStorage tensorStorage(const Tensor& tensor) {
  if (tensor.isExternal()) return TensorStorage::kExternal;
  if (tensor.raw_data.has_value()) return TensorStorage::kRaw;
  const TensorRareFields& more = tensor.rare();
  if (more.computed != nullptr) return TensorStorage::kComputed;
  if (!more.string_data.empty()) return TensorStorage::kStrings;
  if (more.float_data.present || more.int32_data.present || more.int64_data.present ||
      more.double_data.present || more.uint64_data.present) {
    return TensorStorage::kTyped;
  }
  return TensorStorage::kNone;
}

namespace {

// Re-encodes a packed varint payload as little-endian words of `width` bytes.
std::string varintsToWords(const PackedData& data, size_t width) {
  std::string out(static_cast<size_t>(data.count) * width, '\0');
  const char* p = data.payload.data();
  const char* end = p + data.payload.size();
  char* dst = out.data();
  while (p < end) {
    uint64_t value;
    p = wire::decodeVarintUnchecked(p, value);
    std::memcpy(dst, &value, width);  // little-endian: the low `width` bytes
    dst += width;
  }
  return out;
}

}  // namespace

Result<TensorBytes> rawBytes(const Tensor& tensor) {
  const TensorRareFields& more = tensor.rare();
  switch (tensorStorage(tensor)) {
    case TensorStorage::kExternal:
      if (!more.external_bytes) {
        return Status(ErrorCode::kInvalidArgument, "external data has not been loaded");
      }
      return TensorBytes::view(*more.external_bytes);
    case TensorStorage::kRaw: return TensorBytes::view(*tensor.raw_data);
    case TensorStorage::kStrings:
      return Status(ErrorCode::kInvalidArgument, "a STRING tensor has no raw form");
    case TensorStorage::kNone: return TensorBytes::view({});
    case TensorStorage::kComputed: {
      std::string bytes(more.computed->size, '\0');
      Status status = more.computed->compute(
          more.computed->state, 0,
          std::span<std::byte>(reinterpret_cast<std::byte*>(bytes.data()), bytes.size()));
      if (!status.isOk()) return status;
      return TensorBytes::owned(std::move(bytes));
    }
    case TensorStorage::kTyped: break;
  }
  int32_t code = tensor.data_type.value_or(0);
  const ElementTypeInfo* info = elementTypeInfo(code);
  if (info == nullptr) {
    return Status(ErrorCode::kMalformed, "data_type " + std::to_string(code) + " is not known");
  }
  auto wrongField = [&]() {
    return Status(ErrorCode::kMalformed, std::string("the data of a ") + std::string(info->name) +
                                             " tensor is not in the field its type uses");
  };
  switch (info->storage) {
    case StorageField::kFloatData:
      if (!more.float_data.present) return wrongField();
      return TensorBytes::view(more.float_data.payload);
    case StorageField::kDoubleData:
      if (!more.double_data.present) return wrongField();
      return TensorBytes::view(more.double_data.payload);
    case StorageField::kInt64Data:
      if (!more.int64_data.present) return wrongField();
      return TensorBytes::owned(varintsToWords(more.int64_data, 8));
    case StorageField::kUint64Data:
      if (!more.uint64_data.present) return wrongField();
      return TensorBytes::owned(varintsToWords(more.uint64_data, info->bitWidth / 8u));
    case StorageField::kInt32Data: {
      if (!more.int32_data.present) return wrongField();
      // Sub-byte types hold one packed byte per int32, the rest one element per int32.
      size_t width = info->isSubByte() ? 1 : info->bitWidth / 8u;
      return TensorBytes::owned(varintsToWords(more.int32_data, width));
    }
    case StorageField::kStringData:
    case StorageField::kNone: break;
  }
  return wrongField();
}

Status readRawBytes(const Tensor& tensor, uint64_t offset, std::span<std::byte> out) {
  const ComputedBytes* computed = tensor.rare().computed;
  if (computed != nullptr && tensorStorage(tensor) == TensorStorage::kComputed) {
    if (offset > computed->size || out.size() > computed->size - offset) {
      return Status(ErrorCode::kInvalidArgument, "a read past the end of a tensor's bytes");
    }
    return computed->compute(computed->state, offset, out);
  }
  Result<TensorBytes> bytes = rawBytes(tensor);
  if (!bytes) return std::move(bytes).takeStatus();
  std::string_view all = bytes->bytes();
  if (offset > all.size() || out.size() > all.size() - offset) {
    return Status(ErrorCode::kInvalidArgument, "a read past the end of a tensor's bytes");
  }
  if (!out.empty()) std::memcpy(out.data(), all.data() + offset, out.size());
  return Status::ok();
}

}  // namespace onyx
