#include "onyx/serde/test_data.h"

#include "onyx/core/mapped_file.h"
#include "serde/decoder.h"
#include "serde/encoder.h"

namespace onyx {

namespace {

using wire::Reader;
using wire::WireType;

// SequenceProto, MapProto and OptionalProto on top of the model decoder's field readers.
class DataDecoder {
 public:
  explicit DataDecoder(serde::Decoder& decoder) : d_(decoder), arena_(decoder.arena()) {}

  template <class T, class Fn>
  bool sub(Reader& r, WireType wt, const char* field, T& target, Fn&& decode) {
    if (!d_.expectType(r, wt, WireType::kLengthDelimited, field)) return false;
    std::string_view bytes;
    if (!r.readBytes(bytes)) return d_.wireError(r);
    if (!d_.enter(r)) return false;
    bool ok = decode(bytes, target);
    d_.leave();
    return ok;
  }

  bool tensor(std::string_view bytes, Tensor& t) { return d_.decodeTensor(bytes, t); }
  bool sparse(std::string_view bytes, SparseTensor& t) { return d_.decodeSparseTensor(bytes, t); }

  bool sequence(std::string_view bytes, SequenceValue& s) {
    Reader r = d_.reader(bytes);
    while (!r.atEnd()) {
      const char* key_start = r.position();
      uint32_t field;
      WireType wt;
      if (!r.readTag(field, wt)) return d_.wireError(r);
      bool ok = true;
      switch (field) {
        case 1:
          ok = d_.readString(r, wt, s.name, "name", true);
          break;
        case 2:
          ok = d_.readInt32(r, wt, s.elem_type, "elem_type");
          break;
        case 3:
          ok = listItem(r, wt, "tensor_values", s.tensor_values, &DataDecoder::tensor);
          break;
        case 4:
          ok =
              listItem(r, wt, "sparse_tensor_values", s.sparse_tensor_values, &DataDecoder::sparse);
          break;
        case 5:
          ok = listItem(r, wt, "sequence_values", s.sequence_values, &DataDecoder::sequence);
          break;
        case 6:
          ok = listItem(r, wt, "map_values", s.map_values, &DataDecoder::map);
          break;
        case 7:
          ok = listItem(r, wt, "optional_values", s.optional_values, &DataDecoder::optional);
          break;
        default:
          ok = d_.keepUnknown(r, field, wt, key_start, s.unknown);
      }
      if (!ok) return false;
    }
    return true;
  }

  bool map(std::string_view bytes, MapValue& m) {
    Reader r = d_.reader(bytes);
    while (!r.atEnd()) {
      const char* key_start = r.position();
      uint32_t field;
      WireType wt;
      if (!r.readTag(field, wt)) return d_.wireError(r);
      bool ok = true;
      switch (field) {
        case 1:
          ok = d_.readString(r, wt, m.name, "name", true);
          break;
        case 2:
          ok = d_.readInt32(r, wt, m.key_type, "key_type");
          break;
        case 3:
          ok = d_.readRepeatedInt64(r, wt, m.keys, "keys");
          break;
        case 4:
          ok = d_.readBytesList(r, wt, m.string_keys, "string_keys", false);
          break;
        case 5:
          ok = single(r, wt, "values", m.values, &DataDecoder::sequence);
          break;
        default:
          ok = d_.keepUnknown(r, field, wt, key_start, m.unknown);
      }
      if (!ok) return false;
    }
    return true;
  }

  bool optional(std::string_view bytes, OptionalValue& o) {
    Reader r = d_.reader(bytes);
    while (!r.atEnd()) {
      const char* key_start = r.position();
      uint32_t field;
      WireType wt;
      if (!r.readTag(field, wt)) return d_.wireError(r);
      bool ok = true;
      switch (field) {
        case 1:
          ok = d_.readString(r, wt, o.name, "name", true);
          break;
        case 2:
          ok = d_.readInt32(r, wt, o.elem_type, "elem_type");
          break;
        case 3:
          ok = single(r, wt, "tensor_value", o.tensor_value, &DataDecoder::tensor);
          break;
        case 4:
          ok = single(r, wt, "sparse_tensor_value", o.sparse_tensor_value, &DataDecoder::sparse);
          break;
        case 5:
          ok = single(r, wt, "sequence_value", o.sequence_value, &DataDecoder::sequence);
          break;
        case 6:
          ok = single(r, wt, "map_value", o.map_value, &DataDecoder::map);
          break;
        case 7:
          ok = single(r, wt, "optional_value", o.optional_value, &DataDecoder::optional);
          break;
        default:
          ok = d_.keepUnknown(r, field, wt, key_start, o.unknown);
      }
      if (!ok) return false;
    }
    return true;
  }

 private:
  template <class T>
  bool listItem(Reader& r, WireType wt, const char* field, ArenaList<T*>& list,
                bool (DataDecoder::*decode)(std::string_view, T&)) {
    T* item = arena_.make<T>();
    list.push_back(arena_, item);
    bool ok = sub(r, wt, field, *item, [&](std::string_view bytes, T& target) {
      return (this->*decode)(bytes, target);
    });
    return ok ? true : d_.within(field, list.size() - 1);
  }

  template <class T>
  bool single(Reader& r, WireType wt, const char* field, T*& slot,
              bool (DataDecoder::*decode)(std::string_view, T&)) {
    if (slot == nullptr) slot = arena_.make<T>();  // a second occurrence merges, as in protobuf
    bool ok = sub(r, wt, field, *slot, [&](std::string_view bytes, T& target) {
      return (this->*decode)(bytes, target);
    });
    return ok ? true : d_.within(field);
  }

  serde::Decoder& d_;
  Arena& arena_;
};

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
    case Type::Kind::kSequence:
      return TestValueKind::kSequence;
    case Type::Kind::kMap:
      return TestValueKind::kMap;
    case Type::Kind::kOptional:
      return TestValueKind::kOptional;
    case Type::Kind::kSparseTensor:
      return TestValueKind::kSparseTensor;
    default:
      return TestValueKind::kTensor;
  }
}

Result<TestValue> parseTestValue(std::string_view bytes, TestValueKind kind,
                                 std::shared_ptr<const void> owner, const LoadOptions& options) {
  TestValue value;
  value.kind_ = kind;
  value.owner_ = std::move(owner);
  Arena& arena = *value.arena_;
  serde::Decoder decoder(arena, options, bytes.data());
  DataDecoder data(decoder);
  bool ok = false;
  switch (kind) {
    case TestValueKind::kTensor:
      value.tensor_ = arena.make<Tensor>();
      ok = data.tensor(bytes, *value.tensor_);
      break;
    case TestValueKind::kSparseTensor:
      value.sparse_ = arena.make<SparseTensor>();
      ok = data.sparse(bytes, *value.sparse_);
      break;
    case TestValueKind::kSequence:
      value.sequence_ = arena.make<SequenceValue>();
      ok = data.sequence(bytes, *value.sequence_);
      break;
    case TestValueKind::kMap:
      value.map_ = arena.make<MapValue>();
      ok = data.map(bytes, *value.map_);
      break;
    case TestValueKind::kOptional:
      value.optional_ = arena.make<OptionalValue>();
      ok = data.optional(bytes, *value.optional_);
      break;
  }
  if (!ok) return decoder.takeStatus();
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
      case TestValueKind::kTensor:
        encoder.tensor(*value.tensor());
        break;
      case TestValueKind::kSparseTensor:
        encoder.sparse(*value.sparseTensor());
        break;
      case TestValueKind::kSequence:
        encoder.sequence(*value.sequence());
        break;
      case TestValueKind::kMap:
        encoder.map(*value.map());
        break;
      case TestValueKind::kOptional:
        encoder.optional(*value.optional());
        break;
    }
  });
  if (!status) return status;
  return bytes;
}

}  // namespace onyx
