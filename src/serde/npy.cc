#include "onyx/serde/npy.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <vector>

#include "onyx/core/quote.h"

namespace onyx {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

struct Dtype {
  std::string_view code;  // without the byte-order character
  ElementType type;
};

constexpr Dtype kDtypes[] = {
    {"f2", ElementType::kFloat16}, {"f4", ElementType::kFloat},  {"f8", ElementType::kDouble},
    {"i1", ElementType::kInt8},    {"i2", ElementType::kInt16},  {"i4", ElementType::kInt32},
    {"i8", ElementType::kInt64},   {"u1", ElementType::kUint8},  {"u2", ElementType::kUint16},
    {"u4", ElementType::kUint32},  {"u8", ElementType::kUint64}, {"b1", ElementType::kBool},
};

Status bad(std::string message) {
  return Status(ErrorCode::kInvalidArgument, "not a readable .npy file: " + message);
}

// `'text'`: a string in the header's Python dict literal (the file's syntax, not a message).
std::string pythonString(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out.append(text);
  out += '\'';
  return out;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

// The value text after `'key':` in the header dict, up to the next top-level comma or the
// closing brace.
std::optional<std::string_view> dictValue(std::string_view header, std::string_view key) {
  std::string quoted_single = pythonString(key);
  std::string quoted_double = "\"" + std::string(key) + "\"";
  size_t at = header.find(quoted_single);
  size_t length = quoted_single.size();
  if (at == std::string_view::npos) {
    at = header.find(quoted_double);
    length = quoted_double.size();
  }
  if (at == std::string_view::npos) return std::nullopt;
  size_t colon = header.find(':', at + length);
  if (colon == std::string_view::npos) return std::nullopt;
  size_t begin = colon + 1;
  int depth = 0;
  size_t end = begin;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth < 0 || (depth == 0 && (c == ',' || c == '}'))) break;
  }
  return trimmed(header.substr(begin, end - begin));
}

Result<std::vector<int64_t>> parseShape(std::string_view text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
    return bad("the shape is not a tuple: " + std::string(text));
  }
  std::vector<int64_t> shape;
  std::string_view rest = text.substr(1, text.size() - 2);
  while (true) {
    rest = trimmed(rest);
    if (rest.empty()) break;
    size_t comma = rest.find(',');
    std::string_view item = trimmed(rest.substr(0, comma));
    if (item.empty() || item.size() > 18 ||
        !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return bad("a dimension is not a number: " + std::string(item));
    }
    int64_t dim = 0;
    for (char c : item) dim = dim * 10 + (c - '0');
    shape.push_back(dim);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return shape;
}

// Reverses the bytes of each `width`-byte element.
void swapElements(std::byte* data, size_t count, size_t width) {
  for (size_t i = 0; i < count; ++i) std::reverse(data + i * width, data + (i + 1) * width);
}

// Fortran order: the data's first axis varies fastest. Rewrites it row-major.
Array rowMajorFromFortran(const Array& fortran_view, const std::vector<int64_t>& shape) {
  Array out(fortran_view.type(), shape);
  size_t width = arrayElementBytes(fortran_view.type());
  size_t rank = shape.size();
  std::vector<size_t> fortran_strides(rank, 1);
  for (size_t axis = 1; axis < rank; ++axis) {
    fortran_strides[axis] = fortran_strides[axis - 1] * static_cast<size_t>(shape[axis - 1]);
  }
  std::vector<int64_t> position(rank, 0);
  const std::byte* in = fortran_view.bytes().data();
  std::byte* result = out.bytes().data();
  for (size_t flat = 0; flat < out.size(); ++flat) {
    size_t source = 0;
    for (size_t axis = 0; axis < rank; ++axis) {
      source += static_cast<size_t>(position[axis]) * fortran_strides[axis];
    }
    std::memcpy(result + flat * width, in + source * width, width);
    for (size_t axis = rank; axis-- > 0;) {
      if (++position[axis] < shape[axis]) break;
      position[axis] = 0;
    }
  }
  return out;
}

}  // namespace

Result<Array> parseNpy(std::string_view bytes) {
  if (bytes.size() < 10 || bytes.substr(0, kMagic.size()) != kMagic) {
    return bad("it does not start with \\x93NUMPY");
  }
  auto byte = [&](size_t at) { return static_cast<uint8_t>(bytes[at]); };
  uint8_t major = byte(6);
  size_t header_length = 0;
  size_t header_start = 0;
  if (major == 1) {
    header_length = byte(8) | (size_t{byte(9)} << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return bad("the header length is cut off");
    header_length =
        byte(8) | (size_t{byte(9)} << 8) | (size_t{byte(10)} << 16) | (size_t{byte(11)} << 24);
    header_start = 12;
  } else {
    return bad("format version " + std::to_string(major) + " is not 1, 2 or 3");
  }
  if (header_length > bytes.size() - header_start) {
    return bad("the header is longer than the file");
  }
  std::string_view header = bytes.substr(header_start, header_length);
  std::optional<std::string_view> descr = dictValue(header, "descr");
  std::optional<std::string_view> order = dictValue(header, "fortran_order");
  std::optional<std::string_view> shape_text = dictValue(header, "shape");
  if (!descr || !order || !shape_text) {
    return bad("the header lacks descr, fortran_order or shape");
  }
  std::string_view dtype = *descr;
  if (dtype.size() >= 2 && (dtype.front() == '\'' || dtype.front() == '"') &&
      dtype.back() == dtype.front()) {
    dtype = dtype.substr(1, dtype.size() - 2);
  } else {
    return bad("descr is not a simple dtype string: " + std::string(dtype));
  }
  char byte_order = dtype.empty() ? '?' : dtype.front();
  std::string_view code = dtype.size() > 1 ? dtype.substr(1) : dtype;
  const Dtype* found = nullptr;
  for (const Dtype& candidate : kDtypes) {
    if (candidate.code == code) found = &candidate;
  }
  if (found == nullptr ||
      (byte_order != '<' && byte_order != '>' && byte_order != '|' && byte_order != '=')) {
    return Status(ErrorCode::kUnsupported,
                  "the .npy dtype " + quoted(dtype) + " has no onyx element type");
  }
  bool fortran = *order == "True";
  if (!fortran && *order != "False") return bad("fortran_order is " + std::string(*order));
  Result<std::vector<int64_t>> shape = parseShape(*shape_text);
  if (!shape) return shape.status();
  std::string_view data = bytes.substr(header_start + header_length);
  size_t width = arrayElementBytes(found->type);
  Result<uint64_t> count = elementCount(*shape);
  if (!count || *count > data.size() / width + 1) {
    return bad("the shape " + std::string(*shape_text) + " holds more than the " +
               std::to_string(data.size()) + " bytes that follow the header");
  }
  if (*count * width != data.size()) {
    return bad("the shape " + std::string(*shape_text) + " needs " +
               std::to_string(*count * width) + " bytes; " + std::to_string(data.size()) +
               " follow the header");
  }
  Array array(found->type, *shape);
  std::memcpy(array.bytes().data(), data.data(), data.size());
  bool swapped = (byte_order == '>') != (std::endian::native == std::endian::big);
  if (swapped && width > 1 && byte_order != '|' && byte_order != '=') {
    swapElements(array.bytes().data(), array.size(), width);
  }
  if (array.type() == ElementType::kBool) {
    for (std::byte& value : array.bytes()) value = value != std::byte{0} ? std::byte{1} : value;
  }
  if (fortran && array.rank() > 1) return rowMajorFromFortran(array, *shape);
  return array;
}

Result<std::string> serializeNpy(const Array& array) {
  const Dtype* found = nullptr;
  for (const Dtype& candidate : kDtypes) {
    if (candidate.type == array.type()) found = &candidate;
  }
  if (found == nullptr) {
    return Status(ErrorCode::kUnsupported,
                  "NumPy has no dtype for " + std::string(elementTypeName(array.type())));
  }
  char byte_order = arrayElementBytes(array.type()) == 1 ? '|' : '<';
  std::string shape = "(";
  for (size_t axis = 0; axis < array.rank(); ++axis) {
    shape += std::to_string(array.dim(axis)) + (array.rank() == 1 ? "," : "");
    if (axis + 1 < array.rank()) shape += ", ";
  }
  shape += ")";
  std::string descr(1, byte_order);
  descr += found->code;
  std::string header =
      "{'descr': " + pythonString(descr) + ", 'fortran_order': False, 'shape': " + shape + ", }";
  // The header is padded with spaces and a newline so that the data starts on a multiple of
  // 64 bytes.
  size_t prefix = 10;
  bool wide = header.size() + 1 + prefix > 65535;
  if (wide) prefix = 12;
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic);
  out += static_cast<char>(wide ? 2 : 1);
  out += '\0';
  size_t length = header.size();
  out += static_cast<char>(length & 0xff);
  out += static_cast<char>((length >> 8) & 0xff);
  if (wide) {
    out += static_cast<char>((length >> 16) & 0xff);
    out += static_cast<char>((length >> 24) & 0xff);
  }
  out += header;
  std::span<const std::byte> elements = array.bytes();
  size_t start = out.size();
  out.resize(start + elements.size());
  std::memcpy(out.data() + start, elements.data(), elements.size());
  if constexpr (std::endian::native == std::endian::big) {
    swapElements(reinterpret_cast<std::byte*>(out.data() + start), array.size(),
                 arrayElementBytes(array.type()));
  }
  return out;
}

}  // namespace onyx
