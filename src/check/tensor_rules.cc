// The tensor rules R61–R69 and R75 (R70–R74, external data, are in external_data_rules.cc).
#include <limits>
#include <optional>
#include <span>

#include "check/external_data_rules.h"
#include "check/ir_version_gates.h"
#include "check/tensor_fields.h"
#include "check/unknown_enum.h"
#include "check/value_rules.h"
#include "check/value_text.h"

namespace onyx::check {

namespace {

constexpr uint32_t kDataLocationField = 14;

std::span<const int64_t> dimsOf(const Tensor& tensor) {
  return {tensor.dims.begin(), tensor.dims.size()};
}

// R61, R62. The element type's facts, or null when it has none (absent, UNDEFINED, unknown).
const ElementTypeInfo* checkDataType(const Tensor& tensor, const ValueContext& context,
                                     const std::string& path, Diagnostics& out) {
  if (!tensor.data_type.has_value()) {
    out.error("R61", path + ".data_type",
              "data_type is missing; every tensor must state its element type");
    return nullptr;
  }
  const int32_t code = *tensor.data_type;
  const ElementTypeInfo* info = elementTypeInfo(code);
  if (code == 0) {
    out.error("R61", path + ".data_type",
              "data_type is UNDEFINED; a tensor needs a real element type");
  } else if (info == nullptr) {
    out.error("R61", path + ".data_type",
              "data_type " + std::to_string(code) + " is not a known element type (1 to " +
                  std::to_string(kElementTypeTable.size()) + ")");
  } else if (predates(context.ir_version, firstIrVersion(info->type))) {
    out.error("R62", path + ".data_type",
              std::string(info->shortName) + " tensors need IR version " +
                  std::to_string(firstIrVersion(info->type)) +
                  " or later; the model has IR version " + std::to_string(context.ir_version));
  }
  return info;
}

// R63. The element count, or nullopt when the dims do not give one.
std::optional<uint64_t> checkDims(const Tensor& tensor, const std::string& path, Diagnostics& out) {
  bool negative = false;
  for (size_t i = 0; i < tensor.dims.size(); ++i) {
    if (tensor.dims[i] < 0) {
      negative = true;
      out.error("R63", path + ".dims[" + std::to_string(i) + "]",
                "dims[" + std::to_string(i) + "] is " + std::to_string(tensor.dims[i]) +
                    "; a dimension cannot be negative");
    }
  }
  if (negative) return std::nullopt;
  auto count = elementCount(dimsOf(tensor));
  if (!count) {
    out.error("R63", path + ".dims",
              "dims " + formatDims(dimsOf(tensor)) + " have more elements than int64 can count");
    return std::nullopt;
  }
  return *count;
}

// R69.
void checkDataLocation(const Tensor& tensor, const std::string& path, Diagnostics& out) {
  std::optional<int64_t> location = undeclaredEnumValue(tensor.rare().unknown, kDataLocationField);
  if (!location && tensor.data_location.has_value() && *tensor.data_location != 0 &&
      *tensor.data_location != Tensor::kExternal) {
    location = *tensor.data_location;
  }
  if (location) {
    out.error("R69", path + ".data_location",
              "data_location is " + std::to_string(*location) +
                  "; it must be DEFAULT (0) or EXTERNAL (1)");
  }
}

// R75, a warning: onnx.proto describes a segment only as the part of a large tensor a
// TensorProto holds, without saying what its bounds may be, and nothing reads it (onnx
// ignores the field, and so does onyx).
void checkSegment(const Tensor& tensor, const std::string& path, Diagnostics& out) {
  const TensorSegment* segment = tensor.rare().segment;
  if (segment == nullptr) return;
  // proto2 defaults: an absent bound reads as 0.
  const int64_t begin = segment->begin.value_or(0);
  const int64_t end = segment->end.value_or(0);
  if (begin < 0 || end < begin) {
    out.warning("R75", path + ".segment",
                "segment is [" + std::to_string(begin) + ", " + std::to_string(end) +
                    "]; it needs 0 <= begin <= end");
  }
}

// The typed field that holds this type's elements, and how many entries n elements take.
uint64_t typedEntriesFor(const ElementTypeInfo& info, uint64_t count) {
  if (info.isComplex()) return count * 2;  // count <= INT64_MAX, so this cannot wrap
  if (info.isSubByte()) return *packedByteSize(info.type, count);  // one packed byte per entry
  return count;
}

std::string packingNote(const ElementTypeInfo& info) {
  if (info.isComplex()) return " (real and imaginary parts)";
  if (info.isSubByte()) {
    return info.bitWidth == 4 ? " (two elements packed in each entry)"
                              : " (four elements packed in each entry)";
  }
  return "";
}

std::string_view typedFieldName(StorageField field) {
  switch (field) {
    case StorageField::kFloatData: return "float_data";
    case StorageField::kInt32Data: return "int32_data";
    case StorageField::kStringData: return "string_data";
    case StorageField::kInt64Data: return "int64_data";
    case StorageField::kDoubleData: return "double_data";
    case StorageField::kUint64Data: return "uint64_data";
    case StorageField::kNone: break;
  }
  return "raw_data";
}

// R64–R68 for a tensor whose data is in the model.
void checkInlineData(const Tensor& tensor, const ElementTypeInfo* info,
                     std::optional<uint64_t> count, const std::string& path, Diagnostics& out) {
  if (!count) return;  // without a count there is nothing to measure the data against
  const UsedDataFields used = usedDataFields(tensor);
  // Messages are only built for problems: a valid tensor costs no string.
  auto dims = [&] { return formatDims(dimsOf(tensor)); };
  if (*count == 0) {
    if (!used.empty()) {
      out.error(
          "R64", path,
          "the tensor has no elements (dims " + dims() + ") but holds data in " + used.names());
    }
    return;
  }
  if (used.empty()) {
    out.error(
        "R64", path,
        "no data field holds the " + countOf(*count, "element", "elements") + " of dims " + dims());
    return;
  }
  if (used.size > 1) {
    out.error("R64", path,
              "the elements are in " + std::to_string(used.size) + " fields (" + used.names() +
                  "); a tensor keeps them in exactly one");
    return;
  }
  if (info == nullptr) return;  // reported by R61: no type to measure the data against
  const DataFieldUse& field = *used.begin();
  auto described = [&] { return describeTensor(*info, dimsOf(tensor)); };
  if (field.field == StorageField::kNone) {  // raw_data
    if (info->type == ElementType::kString) {
      out.error("R68", path + ".raw_data",
                "a string tensor cannot keep its elements in raw_data; they belong in "
                "string_data");
      return;
    }
    auto expected = packedByteSize(info->type, *count);
    if (!expected) {
      out.error("R63", path + ".dims", described() + " takes more than 2^64 bytes");
      return;
    }
    if (field.entries != *expected) {
      out.error("R67", path + ".raw_data",
                "raw_data has " + countOf(field.entries, "byte", "bytes") + "; " + described() +
                    " needs " + std::to_string(*expected));
    }
    return;
  }
  if (field.field != info->storage) {
    std::string allowed(typedFieldName(info->storage));
    if (info->type != ElementType::kString) allowed += " or raw_data";
    out.error("R65", path + "." + std::string(field.name),
              std::string(article(info->shortName)) + " " + std::string(info->shortName) +
                  " tensor keeps its elements in " + allowed + ", not in " +
                  std::string(field.name));
    return;
  }
  const uint64_t expected = typedEntriesFor(*info, *count);
  if (field.entries != expected) {
    out.error("R66", path + "." + std::string(field.name),
              std::string(field.name) + " has " + countOf(field.entries, "entry", "entries") +
                  "; " + described() + " needs " + std::to_string(expected) + packingNote(*info));
  }
}

}  // namespace

void checkTensor(const Tensor& tensor, const ValueContext& context, const std::string& path,
                 Diagnostics& out) {
  const ElementTypeInfo* info = checkDataType(tensor, context, path, out);
  const std::optional<uint64_t> count = checkDims(tensor, path, out);
  checkDataLocation(tensor, path, out);
  checkSegment(tensor, path, out);
  if (tensor.isExternal()) {
    std::optional<uint64_t> expected_bytes;
    if (info != nullptr && info->type != ElementType::kString && count) {
      auto bytes = packedByteSize(info->type, *count);
      if (bytes) expected_bytes = *bytes;
    }
    checkExternalData(tensor, expected_bytes, context, path, out);
    return;
  }
  if (!tensor.rare().external_data.empty()) {
    out.warning("R73", path + ".external_data",
                "external_data is set but data_location is not EXTERNAL, so it is ignored");
  }
  checkInlineData(tensor, info, count, path, out);
}

}  // namespace onyx::check
