#include "onyx/core/array.h"

#include "core/array_bytes.h"
#include "core/development_checks.h"

#include <cstdint>
#include <cstring>
#include <new>

namespace onyx {

namespace {

size_t countOf(const std::vector<int64_t>& shape) {
  size_t count = 1;
  for (int64_t dim : shape) count *= static_cast<size_t>(dim);
  return count;
}

}  // namespace

struct ArrayDestinationScope::State {
  std::span<const Array> destinations;
  std::vector<bool> taken;
};

namespace {

thread_local ArrayDestinationScope::State* current_destinations = nullptr;

}  // namespace

ArrayDestinationScope::ArrayDestinationScope(std::span<const Array> destinations)
    : previous_(current_destinations),
      state_(new State{destinations, std::vector<bool>(destinations.size(), false)}) {
  current_destinations = state_.get();
}

ArrayDestinationScope::~ArrayDestinationScope() { current_destinations = previous_; }

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
    return;
  }
  if (ArrayDestinationScope::State* state = current_destinations) {
    for (size_t i = 0; i < state->destinations.size(); ++i) {
      const Array& destination = state->destinations[i];
      if (state->taken[i] || destination.type_ != type_ || destination.shape_ != shape_) continue;
      state->taken[i] = true;
      bytes_ = destination.bytes_;
      return;
    }
  }
  bytes_ = core_internal::allocateArrayBytes(size_ * arrayElementBytes(type_));
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
  if (type != ElementType::kString && !core_internal::currentPoolAdmits(*count * width)) {
    return Status(ErrorCode::kLimitExceeded, "an array of " + std::to_string(*count * width) +
                                                 " bytes would pass the run's memory limit");
  }
  return Array(type, std::move(shape));
}

Array Array::elsewhere(ElementType type, std::vector<int64_t> shape, const std::byte* data) {
  ONYX_ASSERT(type != ElementType::kString);
  ONYX_ASSERT(reinterpret_cast<uintptr_t>(data) % kAlignment == 0);
  Array array;
  array.type_ = type;
  array.shape_ = std::move(shape);
  array.size_ = countOf(array.shape_);
  return array;
}

Array Array::borrowing(ElementType type, std::vector<int64_t> shape, const std::byte* data,
                       std::shared_ptr<const void> owner) {
  Array array = elsewhere(type, std::move(shape), data);
  // Shares the owner's count: the elements live while any handle does. Never written through
  // (borrowed_), so dropping const here is sound.
  array.bytes_ = std::shared_ptr<std::byte[]>(std::move(owner), const_cast<std::byte*>(data));
  array.borrowed_ = true;
  return array;
}

Array Array::over(ElementType type, std::vector<int64_t> shape, std::byte* data,
                  std::shared_ptr<void> owner) {
  Array array = elsewhere(type, std::move(shape), data);
  // A count of its own (the owner may have other holders): soleHandle() sees this array's
  // handles only. The deleter frees nothing; it keeps the owner alive until the last handle.
  array.bytes_ = std::shared_ptr<std::byte[]>(data, [kept = std::move(owner)](std::byte*) {});
  return array;
}

bool Array::overlaps(const Array& other) const {
  std::span<const std::byte> mine = bytes(), theirs = other.bytes();
  if (mine.empty() || theirs.empty()) return false;
  auto start = [](std::span<const std::byte> bytes) {
    return reinterpret_cast<uintptr_t>(bytes.data());
  };
  return start(mine) < start(theirs) + theirs.size() && start(theirs) < start(mine) + mine.size();
}

const std::shared_ptr<std::byte[]>& Array::emptyBytes() {
  static const std::shared_ptr<std::byte[]> kBytes = core_internal::allocateArrayBytes(0);
  return kBytes;
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

}  // namespace onyx
