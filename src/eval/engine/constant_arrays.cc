// The arrays of a model's constants, one per process (constant_arrays.h).
#include "eval/engine/constant_arrays.h"

#include <compare>
#include <cstdint>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "onyx/core/element_type.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/tensor_data.h"

namespace onyx::eval_internal {

namespace {

// A constant by its raw bytes where they lie, and how they are read. The address names the
// bytes alone while an entry lives: each entry keeps the bytes' owner alive, so no other bytes
// can take the address.
struct SourceKey {
  const char* data;
  size_t bytes;
  ElementType type;
  std::vector<int64_t> dims;
  auto operator<=>(const SourceKey&) const = default;
};

// A conversion shared by the sessions of a process. Weak in the table: it lives while some
// session's array does.
struct SharedConversion {
  Array array;                         // arrayFromTensor's, owned
  std::shared_ptr<const void> source;  // keeps the bytes of the key alive
};

struct SharedConversions {
  std::mutex mutex;
  std::map<SourceKey, std::weak_ptr<const SharedConversion>> made;
  size_t live_after_prune = 0;  // prunes when the table doubles, so each entry costs O(1)
};

SharedConversions& sharedConversions() {
  // Never destroyed: a session may compile its plan during exit, from another thread.
  static SharedConversions* conversions = new SharedConversions();
  return *conversions;
}

Array borrowedConversion(const std::shared_ptr<const SharedConversion>& conversion) {
  const Array& made = conversion->array;
  return Array::borrowing(made.type(), made.shape(), made.bytes().data(), conversion);
}

// Whether `raw`, `count` elements of `type`, is laid out as an Array would store them, where
// an Array's elements may start.
bool readableInPlace(std::string_view raw, ElementType type, uint64_t count) {
  const ElementTypeInfo* info = elementTypeInfo(type);
  if (info == nullptr || info->isSubByte() || type == ElementType::kString) return false;
  return raw.size() == count * arrayElementBytes(type) &&
         reinterpret_cast<uintptr_t>(raw.data()) % Array::kAlignment == 0;
}

}  // namespace

Result<Array> constantArray(const Tensor& tensor, const std::shared_ptr<const void>& owner) {
  const auto type = static_cast<ElementType>(tensor.data_type.value_or(0));
  // What has no raw form where it lies, or is small, is converted for this session alone (and
  // any error is arrayFromTensor's to tell).
  if (type == ElementType::kString) return arrayFromTensor(tensor);
  Result<TensorBytes> raw = rawBytes(tensor);
  if (!raw || !raw->isView() || raw->bytes().size() < kSharedFrom) return arrayFromTensor(tensor);
  const std::string_view bytes = raw->bytes();
  std::vector<int64_t> dims(tensor.dims.begin(), tensor.dims.end());
  Result<uint64_t> count = elementCount(dims);
  if (count && readableInPlace(bytes, type, *count)) {
    return Array::borrowing(type, std::move(dims), reinterpret_cast<const std::byte*>(bytes.data()),
                            owner);
  }

  SourceKey key{bytes.data(), bytes.size(), type, std::move(dims)};
  SharedConversions& conversions = sharedConversions();
  {
    std::lock_guard<std::mutex> lock(conversions.mutex);
    auto found = conversions.made.find(key);
    if (found != conversions.made.end()) {
      if (std::shared_ptr<const SharedConversion> live = found->second.lock()) {
        return borrowedConversion(live);
      }
    }
  }
  // Converted outside the lock: a large constant takes a while, and other sessions convert
  // other constants meanwhile. Two sessions converting the same one at once keep the first.
  Result<Array> converted = arrayFromTensor(tensor);
  if (!converted) return converted;
  auto made = std::make_shared<const SharedConversion>(
      SharedConversion{std::move(converted).value(), owner});
  std::lock_guard<std::mutex> lock(conversions.mutex);
  std::weak_ptr<const SharedConversion>& entry = conversions.made[std::move(key)];
  if (std::shared_ptr<const SharedConversion> first = entry.lock())
    return borrowedConversion(first);
  entry = made;
  if (conversions.made.size() >= 2 * conversions.live_after_prune + 64) {
    std::erase_if(conversions.made, [](const auto& item) { return item.second.expired(); });
    conversions.live_after_prune = conversions.made.size();
  }
  return borrowedConversion(made);
}

}  // namespace onyx::eval_internal
