#include "onyx/serde/test_data.h"

#include "onyx/core/mapped_file.h"
#include "serde/decoder.h"
#include "serde/encoder.h"

namespace onyx {

namespace serde {

using wire::Reader;
using wire::WireType;

bool Decoder::decodeSequence(std::string_view bytes, SequenceValue& s) {
  return readFields(bytes, s.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, s.name, "name", true));
      case 2: return step(readInt32(r, wt, s.elem_type, "elem_type"));
      case 3: return item(r, wt, "tensor_values", s.tensor_values, &Decoder::decodeTensor);
      case 4:
        return item(r, wt, "sparse_tensor_values", s.sparse_tensor_values,
                    &Decoder::decodeSparseTensor);
      case 5: return item(r, wt, "sequence_values", s.sequence_values, &Decoder::decodeSequence);
      case 6: return item(r, wt, "map_values", s.map_values, &Decoder::decodeMap);
      case 7: return item(r, wt, "optional_values", s.optional_values, &Decoder::decodeOptional);
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeMap(std::string_view bytes, MapValue& m) {
  return readFields(bytes, m.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, m.name, "name", true));
      case 2: return step(readInt32(r, wt, m.key_type, "key_type"));
      case 3: return step(readRepeatedInt64(r, wt, m.keys, "keys"));
      case 4: return step(readBytesList(r, wt, m.string_keys, "string_keys", false));
      case 5: return one(r, wt, "values", ensure(m.values), &Decoder::decodeSequence);
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeOptional(std::string_view bytes, OptionalValue& o) {
  return readFields(bytes, o.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, o.name, "name", true));
      case 2: return step(readInt32(r, wt, o.elem_type, "elem_type"));
      case 3: return one(r, wt, "tensor_value", ensure(o.tensor_value), &Decoder::decodeTensor);
      case 4:
        return one(r, wt, "sparse_tensor_value", ensure(o.sparse_tensor_value),
                   &Decoder::decodeSparseTensor);
      case 5:
        return one(r, wt, "sequence_value", ensure(o.sequence_value), &Decoder::decodeSequence);
      case 6: return one(r, wt, "map_value", ensure(o.map_value), &Decoder::decodeMap);
      case 7:
        return one(r, wt, "optional_value", ensure(o.optional_value), &Decoder::decodeOptional);
      default: return Step::kUnknown;
    }
  });
}

}  // namespace serde

namespace {

template <class Sink>
class DataEncoder {
 public:
  explicit DataEncoder(Sink& sink) : s_(sink), e_(sink) {}

  void tensor(const Tensor& t) { e_.tensor(t); }
  void sparse(const SparseTensor& t) { e_.sparseTensor(t); }

  void sequence(const SequenceValue& v) {
    Unknown u(s_, v.unknown);
    u.upTo(1);
    e_.str(1, v.name);
    u.upTo(2);
    e_.i32(2, v.elem_type);
    u.upTo(3);
    for (const Tensor* t : v.tensor_values) s_.message(3, [&] { tensor(*t); });
    u.upTo(4);
    for (const SparseTensor* t : v.sparse_tensor_values) s_.message(4, [&] { sparse(*t); });
    u.upTo(5);
    for (const SequenceValue* t : v.sequence_values) s_.message(5, [&] { sequence(*t); });
    u.upTo(6);
    for (const MapValue* t : v.map_values) s_.message(6, [&] { map(*t); });
    u.upTo(7);
    for (const OptionalValue* t : v.optional_values) s_.message(7, [&] { optional(*t); });
    u.rest();
  }

  void map(const MapValue& v) {
    Unknown u(s_, v.unknown);
    u.upTo(1);
    e_.str(1, v.name);
    u.upTo(2);
    e_.i32(2, v.key_type);
    u.upTo(3);
    e_.repeatedInt64(3, v.keys);
    u.upTo(4);
    for (std::string_view key : v.string_keys) s_.bytesField(4, key);
    u.upTo(5);
    if (v.values) s_.message(5, [&] { sequence(*v.values); });
    u.rest();
  }

  void optional(const OptionalValue& v) {
    Unknown u(s_, v.unknown);
    u.upTo(1);
    e_.str(1, v.name);
    u.upTo(2);
    e_.i32(2, v.elem_type);
    u.upTo(3);
    if (v.tensor_value) s_.message(3, [&] { tensor(*v.tensor_value); });
    u.upTo(4);
    if (v.sparse_tensor_value) s_.message(4, [&] { sparse(*v.sparse_tensor_value); });
    u.upTo(5);
    if (v.sequence_value) s_.message(5, [&] { sequence(*v.sequence_value); });
    u.upTo(6);
    if (v.map_value) s_.message(6, [&] { map(*v.map_value); });
    u.upTo(7);
    if (v.optional_value) s_.message(7, [&] { optional(*v.optional_value); });
    u.rest();
  }

 private:
  using Unknown = typename serde::Encoder<Sink>::Unknown;
  Sink& s_;
  serde::Encoder<Sink> e_;
};

}  // namespace

TestValueKind testValueKindOf(const Type* type) {
  if (type == nullptr) return TestValueKind::kTensor;
  switch (type->kind) {
    case Type::Kind::kSequence: return TestValueKind::kSequence;
    case Type::Kind::kMap: return TestValueKind::kMap;
    case Type::Kind::kOptional: return TestValueKind::kOptional;
    case Type::Kind::kSparseTensor: return TestValueKind::kSparseTensor;
    default: return TestValueKind::kTensor;
  }
}

Result<TestValue> parseTestValue(std::string_view bytes, TestValueKind kind,
                                 std::shared_ptr<const void> owner, const LoadOptions& options) {
  TestValue value;
  value.kind_ = kind;
  value.owner_ = std::move(owner);
  Arena& arena = *value.arena_;
  serde::Decoder decoder(arena, options, bytes.data());
  bool ok = false;
  switch (kind) {
    case TestValueKind::kTensor:
      ok = decoder.decodeTensor(bytes, *(value.tensor_ = arena.make<Tensor>()));
      break;
    case TestValueKind::kSparseTensor:
      ok = decoder.decodeSparseTensor(bytes, *(value.sparse_ = arena.make<SparseTensor>()));
      break;
    case TestValueKind::kSequence:
      ok = decoder.decodeSequence(bytes, *(value.sequence_ = arena.make<SequenceValue>()));
      break;
    case TestValueKind::kMap:
      ok = decoder.decodeMap(bytes, *(value.map_ = arena.make<MapValue>()));
      break;
    case TestValueKind::kOptional:
      ok = decoder.decodeOptional(bytes, *(value.optional_ = arena.make<OptionalValue>()));
      break;
  }
  if (!ok || !decoder.finishTensors(nullptr)) return decoder.takeStatus();
  return value;
}

Result<TestValue> loadTestValue(const std::string& path, TestValueKind kind,
                                const LoadOptions& options) {
  auto file = MappedFile::open(path);
  if (!file) return std::move(file).takeStatus();
  std::string_view bytes = (*file)->bytes();
  return parseTestValue(bytes, kind, std::move(file.value()), options);
}

Result<std::string> serializeTestValue(const TestValue& value) {
  std::string bytes;
  wire::StringOutput out(bytes);
  Status status = wire::encodeTwoPass(out, [&](auto& sink) {
    DataEncoder<std::remove_reference_t<decltype(sink)>> encoder(sink);
    switch (value.kind()) {
      case TestValueKind::kTensor: encoder.tensor(*value.tensor()); break;
      case TestValueKind::kSparseTensor: encoder.sparse(*value.sparseTensor()); break;
      case TestValueKind::kSequence: encoder.sequence(*value.sequence()); break;
      case TestValueKind::kMap: encoder.map(*value.map()); break;
      case TestValueKind::kOptional: encoder.optional(*value.optional()); break;
    }
  });
  if (!status) return status;
  return bytes;
}

Result<std::string> serializeTensor(const Tensor& tensor) {
  std::string bytes;
  wire::StringOutput out(bytes);
  Status status = wire::encodeTwoPass(out, [&](auto& sink) {
    DataEncoder<std::remove_reference_t<decltype(sink)>> encoder(sink);
    encoder.tensor(tensor);
  });
  if (!status) return status;
  return bytes;
}

}  // namespace onyx
