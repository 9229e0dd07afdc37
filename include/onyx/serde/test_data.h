// onyx/serde/test_data.h — the values in ONNX backend test cases' .pb files.
//
// A case's input_K.pb / output_K.pb holds one message whose kind follows the type of the
// graph's K-th input or output: a TensorProto, a SparseTensorProto, or onnx-data.proto's
// SequenceProto, MapProto or OptionalProto. Decoded zero-copy like models, written back
// byte-identical.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "onyx/core/status.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/type.h"
#include "onyx/serde/model_io.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct MapValue;
struct OptionalValue;

/// SequenceProto.
struct SequenceValue {
  OptString name;
  std::optional<int32_t> elem_type;  // SequenceProto::DataType
  ArenaList<Tensor*> tensor_values;
  ArenaList<SparseTensor*> sparse_tensor_values;
  ArenaList<SequenceValue*> sequence_values;
  ArenaList<MapValue*> map_values;
  ArenaList<OptionalValue*> optional_values;
  UnknownFields unknown;
};

/// MapProto.
struct MapValue {
  OptString name;
  std::optional<int32_t> key_type;
  Repeated<int64_t> keys;
  ArenaList<std::string_view> string_keys;
  SequenceValue* values = nullptr;
  UnknownFields unknown;
};

/// OptionalProto.
struct OptionalValue {
  OptString name;
  std::optional<int32_t> elem_type;
  Tensor* tensor_value = nullptr;
  SparseTensor* sparse_tensor_value = nullptr;
  SequenceValue* sequence_value = nullptr;
  MapValue* map_value = nullptr;
  OptionalValue* optional_value = nullptr;
  UnknownFields unknown;
};

enum class TestValueKind : uint8_t { kTensor, kSparseTensor, kSequence, kMap, kOptional };

/// The message kind a value of `type` is stored as (a tensor when the type is unknown).
TestValueKind testValueKindOf(const Type* type);

/// One decoded .pb value and the memory it lives in. Move-only.
class TestValue {
 public:
  TestValueKind kind() const { return kind_; }
  const Tensor* tensor() const { return tensor_; }
  const SparseTensor* sparseTensor() const { return sparse_; }
  const SequenceValue* sequence() const { return sequence_; }
  const MapValue* map() const { return map_; }
  const OptionalValue* optional() const { return optional_; }

 private:
  friend Result<TestValue> parseTestValue(std::string_view, TestValueKind,
                                          std::shared_ptr<const void>, const LoadOptions&);
  TestValueKind kind_ = TestValueKind::kTensor;
  std::unique_ptr<Arena> arena_ = std::make_unique<Arena>();
  std::shared_ptr<const void> owner_;
  Tensor* tensor_ = nullptr;
  SparseTensor* sparse_ = nullptr;
  SequenceValue* sequence_ = nullptr;
  MapValue* map_ = nullptr;
  OptionalValue* optional_ = nullptr;
};

Result<TestValue> parseTestValue(std::string_view bytes, TestValueKind kind,
                                 std::shared_ptr<const void> owner,
                                 const LoadOptions& options = {});
Result<TestValue> loadTestValue(const std::string& path, TestValueKind kind,
                                const LoadOptions& options = {});
Result<std::string> serializeTestValue(const TestValue& value);

/// A TensorProto on its own, as a test case's .pb file holds it.
Result<std::string> serializeTensor(const Tensor& tensor);

}  // namespace onyx

#pragma GCC visibility pop
