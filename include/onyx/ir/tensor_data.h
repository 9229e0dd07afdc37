// onyx/ir/tensor_data.h — a tensor's elements as raw little-endian bytes, wherever they are.
//
// A TensorProto may carry its data in raw_data, in an external file, or in one of the typed
// fields (float_data, int32_data, ...). rawBytes() gives the raw_data form in every case:
// a view when the bytes already exist in that form (raw_data, external data, float_data of a
// FLOAT tensor), a converted copy otherwise.
//
// A pass may also give a tensor bytes computed from another's on demand (ComputedBytes):
// a 28 GB model whose every weight takes a folded normalization is then written tensor
// slice by tensor slice, never held twice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "onyx/core/status.h"
#include "onyx/ir/tensor.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

class TensorBytes {
 public:
  static TensorBytes view(std::string_view bytes) {
    TensorBytes result;
    result.view_ = bytes;
    return result;
  }
  static TensorBytes owned(std::string bytes) {
    TensorBytes result;
    result.owned_ = std::move(bytes);
    result.is_owned_ = true;
    return result;
  }
  TensorBytes(TensorBytes&& other) noexcept { *this = std::move(other); }
  TensorBytes& operator=(TensorBytes&& other) noexcept {
    owned_ = std::move(other.owned_);
    is_owned_ = other.is_owned_;
    view_ = other.view_;
    return *this;
  }
  std::string_view bytes() const { return is_owned_ ? std::string_view(owned_) : view_; }
  bool isView() const { return !is_owned_; }

 private:
  TensorBytes() = default;
  std::string owned_;
  std::string_view view_;
  bool is_owned_ = false;
};

/// A tensor's raw bytes, computed when asked for (TensorRareFields::computed). Lives in the
/// model's arena, like the tensor, and is never changed once made: a clone shares it.
struct ComputedBytes {
  /// Writes bytes [offset, offset + out.size()) of the tensor's raw form into `out`. The
  /// offset and size are multiples of 16 (a whole number of elements of any type), or the
  /// range ends at `size`.
  using Compute = Status (*)(const void* state, uint64_t offset, std::span<std::byte> out);

  uint64_t size = 0;
  Compute compute = nullptr;
  const void* state = nullptr;
};

/// Where a tensor's elements are stored.
enum class TensorStorage : uint8_t { kNone, kRaw, kExternal, kTyped, kStrings, kComputed };
TensorStorage tensorStorage(const Tensor& tensor);

/// The elements as raw_data would hold them. Errors: a STRING tensor (no raw form), an
/// external tensor not yet resolved, an unknown data type, typed data in the wrong field.
/// Computed bytes are computed into a copy.
Result<TensorBytes> rawBytes(const Tensor& tensor);

/// Bytes [offset, offset + out.size()) of the raw form, without computing or converting
/// the rest (same rule for the range as ComputedBytes::compute); an error when the range
/// passes the end.
Status readRawBytes(const Tensor& tensor, uint64_t offset, std::span<std::byte> out);

}  // namespace onyx

#pragma GCC visibility pop
