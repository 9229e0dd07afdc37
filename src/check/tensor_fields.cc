#include "check/tensor_fields.h"

#include "onyx/ir/tensor_data.h"

namespace onyx::check {

std::string UsedDataFields::names() const {
  std::string text;
  for (size_t i = 0; i < size; ++i) {
    if (i > 0) text += i + 1 == size ? " and " : ", ";
    text += fields[i].name;
  }
  return text;
}

UsedDataFields usedDataFields(const Tensor& tensor) {
  UsedDataFields used;
  auto add = [&](std::string_view name, StorageField field, uint64_t entries) {
    if (entries != 0) used.fields[used.size++] = {name, field, entries};
  };
  const TensorRareFields& more = tensor.rare();
  add("float_data", StorageField::kFloatData, more.float_data.count);
  add("int32_data", StorageField::kInt32Data, more.int32_data.count);
  add("string_data", StorageField::kStringData, more.string_data.size());
  add("int64_data", StorageField::kInt64Data, more.int64_data.count);
  // Bytes a pass computes on demand are written as raw_data.
  uint64_t raw_bytes = tensor.raw_data            ? tensor.raw_data->size()
                       : more.computed != nullptr ? more.computed->size
                                                  : 0;
  add("raw_data", StorageField::kNone, raw_bytes);
  add("double_data", StorageField::kDoubleData, more.double_data.count);
  add("uint64_data", StorageField::kUint64Data, more.uint64_data.count);
  return used;
}

}  // namespace onyx::check
