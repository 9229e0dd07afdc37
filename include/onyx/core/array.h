// onyx/core/array.h — a dense n-dimensional array: what the evaluator computes with.
//
// One element type, a shape, and contiguous row-major storage shared between copies (an
// Array is a handle: copying it is O(1) and both see the same elements; kernels write only
// arrays they allocated). Elements are stored one per slot of their natural width, with two
// exceptions that keep kernels simple: the sub-byte types (INT4, UINT4, FLOAT4E2M1, INT2,
// UINT2) take one byte per element (the code, sign-extended for the signed integers), and
// are packed only when written out; FLOAT16, BFLOAT16 and the FLOAT8 types are stored as
// their bit patterns (uint16_t / uint8_t), converted by the kernels that compute on them.
// STRING arrays hold std::strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "onyx/core/element_type.h"
#include "onyx/core/status.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// The bytes one element takes in an Array (1 for sub-byte types and BOOL; 0 for STRING).
size_t arrayElementBytes(ElementType type);

class Array {
 public:
  /// Where the elements of an array start: a multiple of this many bytes. Kernels vectorise,
  /// and this lets them use aligned loads on every CPU.
  static constexpr size_t kAlignment = 64;

  /// An empty FLOAT array of shape [0]. Every EvalValue holds two, so its (empty) storage is
  /// shared by every default array instead of allocated.
  Array() : type_(ElementType::kFloat), shape_(1, 0), bytes_(emptyBytes()) {}

  /// Elements uninitialised (strings empty). Dims must be non-negative; their product is
  /// overflow-checked by `allocate`.
  Array(ElementType type, std::vector<int64_t> shape);
  /// As above, refusing a shape whose element count or byte size overflows or passes
  /// `max_bytes`.
  static Result<Array> allocate(ElementType type, std::vector<int64_t> shape,
                                uint64_t max_bytes = uint64_t{1} << 40);
  /// An array over elements it does not own: `data` holds them as an Array of `type` and
  /// `shape` stores them, starts at a multiple of kAlignment, and stays valid and unchanged
  /// while `owner` lives, which the array (and every copy of it) keeps alive. Such an array
  /// is borrowed(): its elements are read-only (they may be a read-only mapping of a file, or
  /// shared by other sessions), so soleHandle() is false and writing through data() is an
  /// error; clone() gives a copy to write. Not for STRING.
  static Array borrowing(ElementType type, std::vector<int64_t> shape, const std::byte* data,
                         std::shared_ptr<const void> owner);
  /// An array over the caller's writable elements: `data` holds room for them, starts at a
  /// multiple of kAlignment, and stays valid while `owner` lives, which every copy of the
  /// array keeps alive. Unlike borrowing(), it may be written, and it is soleHandle() while one
  /// handle holds it: how a caller gives a run the memory an output is written to
  /// (Evaluator::run's bound outputs). Not for STRING.
  static Array over(ElementType type, std::vector<int64_t> shape, std::byte* data,
                    std::shared_ptr<void> owner);
  /// A scalar.
  template <class T>
  static Array scalar(ElementType type, T value) {
    Array array(type, {});
    array.data<T>()[0] = value;
    return array;
  }

  ElementType type() const { return type_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  int64_t dim(size_t axis) const { return shape_[axis]; }
  /// The number of elements.
  size_t size() const { return size_; }
  bool isString() const { return type_ == ElementType::kString; }

  /// The elements as `T`, which must match the storage (float for FLOAT, uint16_t for
  /// FLOAT16, int8_t for INT4, bool for BOOL, ...).
  template <class T>
  T* data() {
    return reinterpret_cast<T*>(bytes_.get());
  }
  template <class T>
  const T* data() const {
    return reinterpret_cast<const T*>(bytes_.get());
  }
  std::span<std::byte> bytes() { return {bytes_.get(), size_ * arrayElementBytes(type_)}; }
  std::span<const std::byte> bytes() const {
    return {bytes_.get(), size_ * arrayElementBytes(type_)};
  }
  std::vector<std::string>& strings() { return *strings_; }
  const std::vector<std::string>& strings() const { return *strings_; }

  /// The same elements with another shape of the same element count (no copy).
  Array reshaped(std::vector<int64_t> shape) const;
  /// A copy that owns its own elements.
  Array clone() const;
  /// Whether no other Array shares these elements: then its holder may write them in place.
  bool soleHandle() const { return !borrowed_ && bytes_.use_count() == 1; }
  /// Whether the elements are another's, read-only (borrowing()).
  bool borrowed() const { return borrowed_; }
  /// Whether `other`'s elements lie where some of this array's do.
  bool overlaps(const Array& other) const;

 private:
  static const std::shared_ptr<std::byte[]>& emptyBytes();
  // borrowing()'s and over()'s array before its elements are set: `data` checked.
  static Array elsewhere(ElementType type, std::vector<int64_t> shape, const std::byte* data);

  ElementType type_;
  std::vector<int64_t> shape_;
  size_t size_ = 0;
  std::shared_ptr<std::byte[]> bytes_;
  std::shared_ptr<std::vector<std::string>> strings_;
  bool borrowed_ = false;
};

/// While it lives on a thread, an array made there (Array::allocate or the constructor) of the
/// type and shape of one of `destinations` takes that destination's elements instead of new
/// memory, each destination once: how a run writes an output straight into the memory its
/// caller bound (Evaluator::run), when the output's kernel allocates it there. Whatever else
/// takes a destination first (scratch of the same shape) is harmless: the caller copies the
/// output in after the run. A scope hides any outer one on its thread until it ends.
class ArrayDestinationScope {
 public:
  explicit ArrayDestinationScope(std::span<const Array> destinations);
  ~ArrayDestinationScope();
  ArrayDestinationScope(const ArrayDestinationScope&) = delete;
  ArrayDestinationScope& operator=(const ArrayDestinationScope&) = delete;

  struct State;

 private:
  State* previous_;
  std::unique_ptr<State> state_;
};

}  // namespace onyx

#pragma GCC visibility pop
