// onyx/core/element_type.h — the TensorProto element types: one table of facts per type, byte
// sizes of tensor payloads, and the packing of 2- and 4-bit elements.
//
// Adding a type means one enumerator here and one row in kElementTypeTable; the static_asserts
// below the table catch a row in the wrong place or with contradictory facts.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "onyx/core/status.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// TensorProto.DataType. The values are the codes on the wire.
enum class ElementType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBfloat16 = 16,
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUint4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
  kFloat8E8M0 = 24,
  kUint2 = 25,
  kInt2 = 26,
};

/// The typed TensorProto field that carries a type's elements when raw_data is not used; the
/// values are the field numbers in onnx.proto.
///
/// What onnx.proto says about kInt32Data, which is shared by many types:
///  - types of 8 bits or more put one element in each int32: integers by value (so INT8 -1 is
///    stored as -1), BOOL as 0/1, and FLOAT16, BFLOAT16 and the FLOAT8 types as their bit
///    pattern read as an unsigned integer (FLOAT16 1.0 is 0x3C00, never 1);
///  - 4-bit types (UINT4, INT4, FLOAT4E2M1) put two elements in each int32 and 2-bit types (UINT2,
///    INT2) four, packed exactly as in raw_data: each int32 holds one packed byte, first element
///    in the least significant bits.
/// COMPLEX64 and COMPLEX128 use float_data / double_data with real and imaginary parts
/// interleaved; UINT32 and UINT64 use uint64_data; UINT16 uses int32_data, not uint64_data.
enum class StorageField : uint8_t {
  kNone,
  kFloatData = 4,
  kInt32Data = 5,
  kStringData = 6,
  kInt64Data = 7,
  kDoubleData = 10,
  kUint64Data = 11,
};

/// Bits of ElementTypeInfo::flags.
enum ElementTypeFlag : uint8_t {
  kFloatingPointType = 1 << 0,  // a real floating-point format; complex types are not
  kSignedType = 1 << 1,         // can hold negative values (FNUZ floats can, FLOAT8E8M0 cannot)
  kIntegerType = 1 << 2,        // BOOL is not an integer type here
  kComplexType = 1 << 3,
  kSubByteType = 1 << 4,  // 2 or 4 bits, packed several to a byte
};

struct ElementTypeInfo {
  ElementType type;
  std::string_view name;       // the spec's spelling: "FLOAT8E4M3FN"
  std::string_view shortName;  // the ONNX text syntax's spelling: "float8e4m3fn"
  uint8_t bitWidth;            // bits per element (COMPLEX64: 64); 0 for STRING
  StorageField storage;
  uint8_t flags;  // ElementTypeFlag bits

  constexpr bool isFloatingPoint() const { return (flags & kFloatingPointType) != 0; }
  constexpr bool isSigned() const { return (flags & kSignedType) != 0; }
  constexpr bool isInteger() const { return (flags & kIntegerType) != 0; }
  constexpr bool isComplex() const { return (flags & kComplexType) != 0; }
  constexpr bool isSubByte() const { return (flags & kSubByteType) != 0; }
};

/// Row i describes the type whose code is i + 1 (UNDEFINED has no row).
inline constexpr std::array<ElementTypeInfo, 26> kElementTypeTable = {{
    {ElementType::kFloat, "FLOAT", "float", 32, StorageField::kFloatData,
     kFloatingPointType | kSignedType},
    {ElementType::kUint8, "UINT8", "uint8", 8, StorageField::kInt32Data, kIntegerType},
    {ElementType::kInt8, "INT8", "int8", 8, StorageField::kInt32Data, kIntegerType | kSignedType},
    {ElementType::kUint16, "UINT16", "uint16", 16, StorageField::kInt32Data, kIntegerType},
    {ElementType::kInt16, "INT16", "int16", 16, StorageField::kInt32Data,
     kIntegerType | kSignedType},
    {ElementType::kInt32, "INT32", "int32", 32, StorageField::kInt32Data,
     kIntegerType | kSignedType},
    {ElementType::kInt64, "INT64", "int64", 64, StorageField::kInt64Data,
     kIntegerType | kSignedType},
    {ElementType::kString, "STRING", "string", 0, StorageField::kStringData, 0},
    {ElementType::kBool, "BOOL", "bool", 8, StorageField::kInt32Data, 0},
    {ElementType::kFloat16, "FLOAT16", "float16", 16, StorageField::kInt32Data,
     kFloatingPointType | kSignedType},
    {ElementType::kDouble, "DOUBLE", "double", 64, StorageField::kDoubleData,
     kFloatingPointType | kSignedType},
    {ElementType::kUint32, "UINT32", "uint32", 32, StorageField::kUint64Data, kIntegerType},
    {ElementType::kUint64, "UINT64", "uint64", 64, StorageField::kUint64Data, kIntegerType},
    {ElementType::kComplex64, "COMPLEX64", "complex64", 64, StorageField::kFloatData,
     kComplexType | kSignedType},
    {ElementType::kComplex128, "COMPLEX128", "complex128", 128, StorageField::kDoubleData,
     kComplexType | kSignedType},
    {ElementType::kBfloat16, "BFLOAT16", "bfloat16", 16, StorageField::kInt32Data,
     kFloatingPointType | kSignedType},
    {ElementType::kFloat8E4M3FN, "FLOAT8E4M3FN", "float8e4m3fn", 8, StorageField::kInt32Data,
     kFloatingPointType | kSignedType},
    {ElementType::kFloat8E4M3FNUZ, "FLOAT8E4M3FNUZ", "float8e4m3fnuz", 8, StorageField::kInt32Data,
     kFloatingPointType | kSignedType},
    {ElementType::kFloat8E5M2, "FLOAT8E5M2", "float8e5m2", 8, StorageField::kInt32Data,
     kFloatingPointType | kSignedType},
    {ElementType::kFloat8E5M2FNUZ, "FLOAT8E5M2FNUZ", "float8e5m2fnuz", 8, StorageField::kInt32Data,
     kFloatingPointType | kSignedType},
    {ElementType::kUint4, "UINT4", "uint4", 4, StorageField::kInt32Data,
     kIntegerType | kSubByteType},
    {ElementType::kInt4, "INT4", "int4", 4, StorageField::kInt32Data,
     kIntegerType | kSignedType | kSubByteType},
    {ElementType::kFloat4E2M1, "FLOAT4E2M1", "float4e2m1", 4, StorageField::kInt32Data,
     kFloatingPointType | kSignedType | kSubByteType},
    {ElementType::kFloat8E8M0, "FLOAT8E8M0", "float8e8m0", 8, StorageField::kInt32Data,
     kFloatingPointType},
    {ElementType::kUint2, "UINT2", "uint2", 2, StorageField::kInt32Data,
     kIntegerType | kSubByteType},
    {ElementType::kInt2, "INT2", "int2", 2, StorageField::kInt32Data,
     kIntegerType | kSignedType | kSubByteType},
}};

namespace element_type_detail {

constexpr bool rowIsConsistent(const ElementTypeInfo& row, size_t index) {
  if (static_cast<size_t>(row.type) != index + 1) return false;
  if (row.name.empty() || row.shortName.size() != row.name.size()) return false;
  // The text syntax's name is the spec's name in lower case, for every type so far.
  for (size_t i = 0; i < row.name.size(); ++i) {
    char upper = row.name[i];
    if (upper >= 'A' && upper <= 'Z') upper = static_cast<char>(upper - 'A' + 'a');
    if (upper != row.shortName[i]) return false;
  }
  const bool narrow = row.bitWidth == 2 || row.bitWidth == 4;
  if (narrow != row.isSubByte()) return false;
  if ((row.bitWidth == 0) != (row.storage == StorageField::kStringData)) return false;
  if (row.isInteger() && (row.isFloatingPoint() || row.isComplex())) return false;
  return row.bitWidth % 8 == 0 || narrow;
}

constexpr bool tableIsConsistent() {
  for (size_t i = 0; i < kElementTypeTable.size(); ++i) {
    if (!rowIsConsistent(kElementTypeTable[i], i)) return false;
  }
  return true;
}

}  // namespace element_type_detail

static_assert(element_type_detail::tableIsConsistent(),
              "kElementTypeTable: a row is out of order or contradicts itself");

/// The row for a TensorProto.DataType code; nullptr for UNDEFINED and for unknown codes.
constexpr const ElementTypeInfo* elementTypeInfo(int32_t code) {
  if (code < 1 || code > static_cast<int32_t>(kElementTypeTable.size())) return nullptr;
  return &kElementTypeTable[static_cast<size_t>(code - 1)];
}
constexpr const ElementTypeInfo* elementTypeInfo(ElementType type) {
  return elementTypeInfo(static_cast<int32_t>(type));
}

/// Accepts the spec's spelling ("FLOAT16") and the text syntax's ("float16"), exactly; nullopt
/// for anything else, including "UNDEFINED", which names no element type a tensor can have.
std::optional<ElementType> elementTypeFromName(std::string_view name);

/// The spec's spelling; "UNDEFINED" for 0 and "UNKNOWN" for codes with no row.
std::string_view elementTypeName(int32_t code);
inline std::string_view elementTypeName(ElementType type) {
  return elementTypeName(static_cast<int32_t>(type));
}

/// Bytes that `count` elements take in raw_data: 2- and 4-bit elements packed and the last
/// byte counted even when partly used. kInvalidArgument for STRING (which has no raw form),
/// UNDEFINED and unknown types; kLimitExceeded when the size does not fit in 64 bits.
Result<uint64_t> packedByteSize(ElementType type, uint64_t count);

/// The number of elements of a tensor with these dims: 1 for a scalar (no dims), 0 when any dim
/// is 0. kMalformed for a negative dim; kLimitExceeded when the product passes INT64_MAX, the
/// largest size ONNX's int64 shapes can state.
Result<uint64_t> elementCount(std::span<const int64_t> dims);

// Packed 2- and 4-bit elements: element `index` lives in byte index / 2 (4-bit) or index / 4
// (2-bit), the first element of each byte in its least significant bits. `type` must be UINT4,
// INT4, FLOAT4E2M1, UINT2 or INT2; any other type is handled as a 4-bit one.

/// The raw 2- or 4-bit code of element `index`.
inline uint8_t unpackSubByte(const uint8_t* bytes, uint64_t index, ElementType type) {
  if (type == ElementType::kUint2 || type == ElementType::kInt2) {
    const unsigned shift = static_cast<unsigned>(index & 3) * 2;
    return static_cast<uint8_t>((bytes[index >> 2] >> shift) & 0x3);
  }
  const unsigned shift = static_cast<unsigned>(index & 1) * 4;
  return static_cast<uint8_t>((bytes[index >> 1] >> shift) & 0xF);
}

/// Stores the low 2 or 4 bits of `code` as element `index`, leaving the byte's other elements.
inline void packSubByte(uint8_t* bytes, uint64_t index, uint8_t code, ElementType type) {
  unsigned mask = 0xF;
  unsigned shift = static_cast<unsigned>(index & 1) * 4;
  uint64_t byte = index >> 1;
  if (type == ElementType::kUint2 || type == ElementType::kInt2) {
    mask = 0x3;
    shift = static_cast<unsigned>(index & 3) * 2;
    byte = index >> 2;
  }
  const unsigned kept = bytes[byte] & ~(mask << shift);
  bytes[byte] = static_cast<uint8_t>(kept | ((code & mask) << shift));
}

/// The value of an INT4 or INT2 code as two's complement (INT4 0xF is -1, INT2 0x2 is -2). For the
/// other sub-byte types the code is returned unchanged (zero-extended).
inline int8_t signExtendSubByte(uint8_t code, ElementType type) {
  switch (type) {
    case ElementType::kInt4: return static_cast<int8_t>(((code & 0xF) ^ 0x8) - 0x8);
    case ElementType::kInt2: return static_cast<int8_t>(((code & 0x3) ^ 0x2) - 0x2);
    case ElementType::kUint2: return static_cast<int8_t>(code & 0x3);
    default: return static_cast<int8_t>(code & 0xF);
  }
}

}  // namespace onyx

#pragma GCC visibility pop
