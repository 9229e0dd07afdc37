#include "text/tensor_literal.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <type_traits>

#include "onyx/ir/tensor_data.h"
#include "wire/reader.h"

namespace onyx::text {

namespace {

// Elements per line once a literal is long enough to wrap: floats take more room.
template <class T>
constexpr uint64_t perLine() {
  return std::is_floating_point_v<T> ? 8 : 16;
}

// Writes `{a, b, c}`, breaking long lists into lines of `per_line` elements; an elided list
// (TensorFormat::elide_over) is `{a, b, c, ... 9405 more}` on one line.
class ElementList {
 public:
  ElementList(TextWriter& writer, const TensorFormat& format, uint64_t count, uint64_t per_line)
      : writer_(writer),
        format_(format),
        count_(count),
        per_line_(per_line),
        shown_(format.elide_over != 0 && count > format.elide_over ? format.elided_shown : count),
        wrap_(shown_ > per_line) {
    writer_.raw('{');
  }
  /// Whether the next element is written (the caller writes it).
  bool next() {
    if (written_ == shown_) return false;
    const bool break_line = wrap_ && written_ % per_line_ == 0;
    if (written_ > 0) writer_.raw(break_line ? "," : ", ");
    if (break_line) {
      writer_.raw('\n');
      writer_.spaces(format_.indent + format_.indent_unit);
    }
    ++written_;
    return true;
  }
  void close() {
    if (shown_ < count_) {
      writer_.raw(shown_ > 0 ? ", ... " : "... ");
      writer_.integer(count_ - shown_);
      writer_.raw(" more");
    }
    if (wrap_) {
      writer_.raw('\n');
      writer_.spaces(format_.indent);
    }
    writer_.raw('}');
  }

 private:
  TextWriter& writer_;
  const TensorFormat& format_;
  uint64_t count_;
  uint64_t per_line_;
  uint64_t shown_;
  bool wrap_;
  uint64_t written_ = 0;
};

template <class T>
void writeValue(TextWriter& writer, T value) {
  if constexpr (std::is_floating_point_v<T>) {
    writer.number(value);
  } else if constexpr (std::is_signed_v<T>) {
    writer.integer(static_cast<int64_t>(value));
  } else {
    writer.integer(static_cast<uint64_t>(value));
  }
}

template <class T>
bool isUnwritableNan(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return isNanWithPayload(value);
  } else {
    return false;
  }
}

// Counts the NaNs with payloads a literal loses, and reports them once per tensor.
class NanPayloads {
 public:
  template <class T>
  void check(T value) {
    if (!isUnwritableNan(value)) return;
    if (count_++ == 0) {
      if constexpr (std::is_same_v<T, float>) {
        first_ = fmt::format("0x{:08x}", std::bit_cast<uint32_t>(value));
      } else if constexpr (std::is_same_v<T, double>) {
        first_ = fmt::format("0x{:016x}", std::bit_cast<uint64_t>(value));
      }
    }
  }
  void report(LossLog& log, std::string_view field) const {
    if (count_ == 0) return;
    log.lose(field, fmt::format("{} NaN{} with a payload (the first is {}) read back as the "
                                "default NaN",
                                count_, count_ == 1 ? "" : "s", first_));
  }

 private:
  uint64_t count_ = 0;
  std::string first_;
};

// Elements of type `Stored` read from little-endian bytes.
template <class Stored>
void writeFixedWidth(TextWriter& writer, LossLog& log, std::string_view bytes,
                     const TensorFormat& format, std::string_view field) {
  const uint64_t count = bytes.size() / sizeof(Stored);
  NanPayloads nans;
  if (format.write_data) {
    ElementList list(writer, format, count, perLine<Stored>());
    for (uint64_t i = 0; i < count; ++i) {
      Stored value;
      std::memcpy(&value, bytes.data() + i * sizeof(Stored), sizeof(Stored));
      nans.check(value);
      if (list.next()) writeValue(writer, value);
    }
    list.close();
  } else if constexpr (std::is_floating_point_v<Stored>) {
    for (uint64_t i = 0; i < count; ++i) {
      Stored value;
      std::memcpy(&value, bytes.data() + i * sizeof(Stored), sizeof(Stored));
      nans.check(value);
    }
  }
  nans.report(log, field);
  if (bytes.size() % sizeof(Stored) != 0) {
    log.lose(field, fmt::format("{} trailing byte(s) that make no whole element",
                                bytes.size() % sizeof(Stored)));
  }
}

// Elements of a varint field, each narrowed as protobuf narrows the field's type.
template <class Field>
void writeVarints(TextWriter& writer, const PackedData& data, const TensorFormat& format) {
  if (!format.write_data) return;
  ElementList list(writer, format, data.count, perLine<Field>());
  const char* p = data.payload.data();
  const char* end = p + data.payload.size();
  while (p < end) {
    uint64_t raw;
    p = wire::decodeVarintUnchecked(p, raw);
    if (!list.next()) break;
    if constexpr (std::is_same_v<Field, int32_t>) {
      writer.integer(static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(raw))));
    } else if constexpr (std::is_same_v<Field, int64_t>) {
      writer.integer(static_cast<int64_t>(raw));
    } else {
      writer.integer(raw);
    }
  }
  list.close();
}

// raw_data holds elements as the typed field would after the parser reads the literal:
// the narrow floats as unsigned bit patterns, sub-byte types as packed bytes.
void writeRawData(TextWriter& writer, LossLog& log, const ElementTypeInfo& info,
                  std::string_view bytes, const TensorFormat& format) {
  constexpr std::string_view field = "raw_data";
  switch (info.type) {
    case ElementType::kInt8: return writeFixedWidth<int8_t>(writer, log, bytes, format, field);
    case ElementType::kInt16: return writeFixedWidth<int16_t>(writer, log, bytes, format, field);
    case ElementType::kInt32: return writeFixedWidth<int32_t>(writer, log, bytes, format, field);
    case ElementType::kInt64: return writeFixedWidth<int64_t>(writer, log, bytes, format, field);
    case ElementType::kUint16:
    case ElementType::kFloat16:
    case ElementType::kBfloat16:
      return writeFixedWidth<uint16_t>(writer, log, bytes, format, field);
    case ElementType::kUint32: return writeFixedWidth<uint32_t>(writer, log, bytes, format, field);
    case ElementType::kUint64: return writeFixedWidth<uint64_t>(writer, log, bytes, format, field);
    case ElementType::kFloat:
    case ElementType::kComplex64: return writeFixedWidth<float>(writer, log, bytes, format, field);
    case ElementType::kDouble:
    case ElementType::kComplex128:
      return writeFixedWidth<double>(writer, log, bytes, format, field);
    default:
      // One byte per element (UINT8, BOOL, the FLOAT8 types) or per packed pair or quad.
      return writeFixedWidth<uint8_t>(writer, log, bytes, format, field);
  }
}

struct TypedField {
  std::string_view name;
  const PackedData* data;
  StorageField storage;
};

void writeTypedField(TextWriter& writer, LossLog& log, const TypedField& field,
                     const TensorFormat& format) {
  switch (field.storage) {
    case StorageField::kFloatData:
      return writeFixedWidth<float>(writer, log, field.data->payload, format, field.name);
    case StorageField::kDoubleData:
      return writeFixedWidth<double>(writer, log, field.data->payload, format, field.name);
    case StorageField::kInt32Data: return writeVarints<int32_t>(writer, *field.data, format);
    case StorageField::kInt64Data: return writeVarints<int64_t>(writer, *field.data, format);
    case StorageField::kUint64Data: return writeVarints<uint64_t>(writer, *field.data, format);
    case StorageField::kStringData:
    case StorageField::kNone: break;
  }
}

void writeStrings(TextWriter& writer, const Tensor& tensor, const TensorFormat& format) {
  if (!format.write_data) return;
  ElementList list(writer, format, tensor.rare().string_data.size(), 8);
  for (std::string_view text : tensor.rare().string_data) {
    if (!list.next()) break;
    writer.quoted(text);
  }
  list.close();
}

void writeEmpty(TextWriter& writer, const TensorFormat& format) {
  if (format.write_data) writer.raw("{}");
}

void writeExternalReference(TextWriter& writer, LossLog& log, const Tensor& tensor) {
  writer.raw('[');
  for (size_t i = 0; i < tensor.rare().external_data.size(); ++i) {
    const StringStringEntry& entry = tensor.rare().external_data[i];
    if (i > 0) writer.raw(", ");
    writer.quoted(entry.key.value_or(""));
    writer.raw(": ");
    writer.quoted(entry.value.value_or(""));
    LossLog::Scope scope(log, "external_data", i, entry.key.value_or(""));
    log.loseUnknown(entry.unknown);
  }
  writer.raw(']');
}

}  // namespace

const ElementTypeInfo* literalElementType(const Tensor& tensor) {
  return elementTypeInfo(tensor.data_type.value_or(0));
}

void writeTensorLiteral(TextWriter& writer, LossLog& log, const Tensor& tensor,
                        const TensorFormat& format) {
  const TensorRareFields& more = tensor.rare();
  const ElementTypeInfo& info = *literalElementType(tensor);
  writer.raw(info.shortName);
  if (!tensor.dims.empty()) {
    writer.raw('[');
    for (size_t i = 0; i < tensor.dims.size(); ++i) {
      if (i > 0) writer.raw(',');
      writer.integer(tensor.dims[i]);
    }
    writer.raw(']');
  }

  std::string_view name = tensor.nameOrEmpty();
  const bool external = tensor.isExternal();
  if (format.place == TensorPlace::kInitializer) {
    writer.raw(' ');
    writer.name(name);
    writer.raw(" = ");
  } else {
    // As an attribute value the parser tells a tensor from a type by what follows the type:
    // `{`, `=` or an identifier. A quoted name is none of these, so names cannot be quoted.
    if (!name.empty()) {
      writer.raw(' ');
      if (isIdentifier(name)) {
        writer.raw(name);
      } else {
        std::string stand_in = identifierStandIn(name);
        log.lose("name", fmt::format("not an identifier, which a tensor given as an attribute "
                                     "must have; written as {}",
                                     stand_in));
        writer.raw(stand_in);
      }
    }
    writer.raw(external ? " = " : " ");
  }

  const TypedField typed[] = {
      {"float_data", &more.float_data, StorageField::kFloatData},
      {"int32_data", &more.int32_data, StorageField::kInt32Data},
      {"int64_data", &more.int64_data, StorageField::kInt64Data},
      {"double_data", &more.double_data, StorageField::kDoubleData},
      {"uint64_data", &more.uint64_data, StorageField::kUint64Data},
  };
  // Everything that holds elements, apart from the one storage written; each is lost.
  auto loseOtherStorage = [&](std::string_view kept, bool raw_kept, bool strings_kept) {
    if (!raw_kept && tensor.raw_data.has_value()) {
      log.lose("raw_data", fmt::format("also present; the text keeps {}", kept));
    }
    if (!strings_kept && !more.string_data.empty()) {
      log.lose("string_data", fmt::format("also present; the text keeps {}", kept));
    }
    for (const TypedField& field : typed) {
      if (field.name != kept && field.data->present && field.data->count > 0) {
        log.lose(field.name, fmt::format("also present; the text keeps {}", kept));
      }
    }
  };

  if (external) {
    if (more.external_data.empty()) {
      log.lose("external_data", "stored externally with no location: the reference is empty");
    }
    writeExternalReference(writer, log, tensor);
    loseOtherStorage("the external reference", false, false);
  } else {
    if (!more.external_data.empty()) {
      log.lose("external_data", "entries on a tensor stored inline");
    }
    if (info.type == ElementType::kString) {
      if (tensor.raw_data.has_value()) log.lose("raw_data", "a STRING tensor has no raw form");
      writeStrings(writer, tensor, format);
      loseOtherStorage("string_data", true, true);
    } else if (tensor.raw_data.has_value()) {
      writeRawData(writer, log, info, *tensor.raw_data, format);
      loseOtherStorage("raw_data", true, false);
    } else if (tensorStorage(tensor) == TensorStorage::kComputed) {
      // Written as the binary writer would: computed into raw_data.
      Result<TensorBytes> bytes = rawBytes(tensor);
      if (bytes) {
        writeRawData(writer, log, info, bytes->bytes(), format);
      } else {
        log.lose("raw_data", "its bytes could not be computed: " + bytes.status().message());
        writeEmpty(writer, format);
      }
    } else {
      const TypedField* used = nullptr;
      for (const TypedField& field : typed) {
        if (field.storage == info.storage) used = &field;
      }
      if (used != nullptr && used->data->present) {
        writeTypedField(writer, log, *used, format);
        loseOtherStorage(used->name, false, false);
      } else {
        writeEmpty(writer, format);
        for (const TypedField& field : typed) {
          if (field.data->present && field.data->count > 0) {
            log.lose(field.name, fmt::format("the data of a {} tensor is not in the field its "
                                             "type uses",
                                             info.name));
          }
        }
        if (!more.string_data.empty()) {
          log.lose("string_data", fmt::format("strings in a {} tensor", info.name));
        }
      }
    }
  }

  if (!more.doc_string.value_or("").empty()) log.lose("doc_string", *more.doc_string);
  if (more.segment != nullptr) log.lose("segment", "tensor segments have no text form");
  if (!more.metadata_props.empty()) {
    log.lose("metadata_props", fmt::format("{} entr{}", more.metadata_props.size(),
                                           more.metadata_props.size() == 1 ? "y" : "ies"));
  }
  log.loseUnknown(more.unknown);
}

}  // namespace onyx::text
