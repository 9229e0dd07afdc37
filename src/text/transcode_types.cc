// The type and tensor-constant rules of the text syntax, and the names they are made of.
#include <bit>
#include <span>

#include "onyx/core/element_type.h"
#include "onyx/core/quote.h"
#include "serde/field_numbers.h"
#include "text/transcoder.h"

namespace onyx::text {

namespace {

namespace f = ::onyx::field;

// The element type a text type name stands for (float, int64, float8e4m3fn, ...), or 0.
int32_t elementTypeCode(std::string_view name) {
  if (name.empty()) return 0;
  for (const ElementTypeInfo& info : kElementTypeTable) {
    if (info.shortName == name) return static_cast<int32_t>(info.type);
  }
  return 0;
}

constexpr int32_t kStringType = static_cast<int32_t>(ElementType::kString);

bool isTypeKeyword(std::string_view name) {
  return name == "seq" || name == "map" || name == "optional" || name == "sparse_tensor" ||
         name == "opaque";
}

}  // namespace

bool Transcoder::nextIsType() {
  std::string_view id = s_.peekIdentifier();
  return elementTypeCode(id) != 0 || isTypeKeyword(id);
}

bool Transcoder::quotableName(TextString& name, std::string_view what) {
  if (s_.next() == '"') return s_.quoted(name);
  std::string_view id = s_.identifier();
  if (id.empty()) return s_.expected(std::string(what) + " (an identifier or a quoted string)");
  name = TextString::plain(id);
  return true;
}

// id ('.' id)*, joined by dots.
bool Transcoder::dottedName(TextString& name) {
  std::string_view id = s_.identifier();
  if (id.empty()) return s_.expected("a name");
  const char* first = id.data();
  const char* last = id.data() + id.size();
  size_t size = id.size();
  while (s_.accept('.')) {
    id = s_.identifier();
    if (id.empty()) return s_.expected("a name after '.'");
    size += 1 + id.size();
    last = id.data() + id.size();
  }
  bool contiguous = size == static_cast<size_t>(last - first);
  name = {first, last, size, contiguous ? TextString::Form::kPlain : TextString::Form::kDotted};
  return true;
}

bool Transcoder::tooDeep() {
  s_.next();
  return s_.failAt(s_.position(), ErrorCode::kLimitExceeded,
                   "graphs and types nest more than " + std::to_string(options_.max_depth) +
                       " deep here (TextParseOptions::max_depth)");
}

// type ::= prim-type ('[' ']' | '[' dims ']')? | 'seq' '(' type ')'
//        | 'map' '(' prim-type ',' type ')' | 'optional' '(' type ')'
//        | 'sparse_tensor' '(' prim-type ('[' ']' | '[' dims ']')? ')'
//        | 'opaque' '(' (qualified-id (',' id)?)? ')'
// A lone qualified-id in opaque(...) is the name, not the domain (onnx's reading).
bool Transcoder::typeBody(WireBuffer& out, TypeSummary* summary) {
  Depth depth(*this);
  if (!depth.ok()) return false;
  s_.next();
  const char* at = s_.position();
  if (summary != nullptr) {
    *summary = TypeSummary();
    summary->begin = at;
    dims_.clear();
  }
  std::string_view id = s_.identifier();
  auto read = [&]() -> bool {
    if (int32_t elem = elementTypeCode(id)) {
      size_t mark = out.mark();
      out.int32Field(f::type::kElemType, elem);
      if (!tensorShape(out, summary)) return false;
      out.closeMessage(f::type::kTensorType, mark);
      if (summary != nullptr) summary->elem_type = elem;
      return true;
    }
    if (id == "seq" || id == "optional") {
      if (!s_.expect('(')) return false;
      size_t mark = out.mark();
      if (!typeBody(out, nullptr)) return false;
      out.closeMessage(f::type::kElemType, mark);
      out.closeMessage(id == "seq" ? f::type::kSequenceType : f::type::kOptionalType, mark);
      return s_.expect(')');
    }
    if (id == "map") {
      if (!s_.expect('(')) return false;
      s_.next();
      const char* key_at = s_.position();
      int32_t key = elementTypeCode(s_.identifier());
      if (key == 0) {
        return s_.expectedAt(key_at,
                             "an element type for the map's keys (such as int64 or string)");
      }
      size_t mark = out.mark();
      out.int32Field(f::type::kKeyType, key);
      if (!s_.expect(',')) return false;
      size_t value = out.mark();
      if (!typeBody(out, nullptr)) return false;
      out.closeMessage(f::type::kValueType, value);
      out.closeMessage(f::type::kMapType, mark);
      return s_.expect(')');
    }
    if (id == "sparse_tensor") {
      if (!s_.expect('(')) return false;
      s_.next();
      const char* elem_at = s_.position();
      int32_t elem = elementTypeCode(s_.identifier());
      if (elem == 0) return s_.expectedAt(elem_at, "an element type (such as float)");
      size_t mark = out.mark();
      out.int32Field(f::type::kElemType, elem);
      if (!tensorShape(out, nullptr)) return false;
      out.closeMessage(f::type::kSparseTensorType, mark);
      return s_.expect(')');
    }
    if (id == "opaque") {
      if (!s_.expect('(')) return false;
      size_t mark = out.mark();
      if (!s_.accept(')')) {
        TextString first;
        if (!dottedName(first)) return false;
        if (s_.accept(',')) {
          out.stringField(f::type::kOpaqueDomain, first);
          std::string_view name = s_.identifier();
          if (name.empty()) return s_.expected("the opaque type's name");
          out.stringField(f::type::kOpaqueName, TextString::plain(name));
        } else {
          out.stringField(f::type::kOpaqueName, first);
        }
        if (!s_.expect(')')) return false;
      }
      out.closeMessage(f::type::kOpaqueType, mark);
      return true;
    }
    return s_.expectedAt(at,
                         "a type (such as float[N,3], seq(float), map(int64, float), "
                         "optional(float), sparse_tensor(float[N]) or opaque(domain, name))");
  };
  if (!read()) return false;
  if (summary != nullptr) summary->end = s_.position();
  return true;
}

// ('[' ']' | '[' dim (',' dim)* ']')?, dim ::= '?' | quotable-id | int. No brackets is a
// scalar (a shape without dims); `[]` is a tensor of unknown rank (no shape at all).
bool Transcoder::tensorShape(WireBuffer& out, TypeSummary* summary) {
  if (!s_.accept('[')) {
    out.key(f::type::kShape, WireBuffer::kLengthDelimited);
    out.varint(0);
    if (summary != nullptr) summary->has_shape = true;
    return true;
  }
  if (s_.accept(']')) return true;
  if (summary != nullptr) summary->has_shape = true;
  size_t mark = out.mark();
  do {
    size_t dim = out.mark();
    int c = s_.next();
    const char* at = s_.position();
    bool symbolic = true;
    if (s_.accept('?')) {
      // neither a value nor a parameter: an unknown dimension
    } else if (c == '"') {
      TextString param;
      if (!s_.quoted(param)) return false;
      out.stringField(f::shape::kDimParam, param);
    } else if (std::string_view id = s_.identifier(); !id.empty()) {
      out.stringField(f::shape::kDimParam, TextString::plain(id));
    } else {
      Literal literal;
      int64_t value;
      if (!s_.literal(literal)) return false;
      if (literal.kind == Literal::Kind::kNone) {
        return s_.expectedAt(at, "a dimension (a number, a name, a quoted string or ?)");
      }
      if (!s_.toInt64(literal, value)) return false;
      out.varintField(f::shape::kDimValue, static_cast<uint64_t>(value));
      if (summary != nullptr) dims_.push_back(value);
      symbolic = false;
    }
    if (symbolic && summary != nullptr && summary->symbolic_dim == nullptr) {
      summary->symbolic_dim = at;
    }
    out.closeMessage(f::shape::kDim, dim);
  } while (s_.accept(','));
  if (!s_.expect(']')) return false;
  out.closeMessage(f::type::kShape, mark);
  if (summary != nullptr) summary->dims_end = dims_.size();
  return true;
}

// tensor-constant data ::= '{' (literal (',' literal)*)? '}' | '[' str-str (',' str-str)* ']'
//                        | nothing (a tensor with dims and type only, as onnx accepts)
// The type must be a tensor type with numeric dims. Values go where onnx puts them: int32_data
// for the types of 16 bits or fewer (integers, bool, float16 and the float8 bit patterns),
// int64_data, uint64_data for uint32 and uint64, float_data for float and complex64,
// double_data for double and complex128, string_data for string. The number of values is
// not checked against the dims, as onnx does not; the checker does that.
bool Transcoder::tensorConstant(WireBuffer& out, uint32_t field, const TypeSummary& type,
                                const TextString& name) {
  if (type.elem_type == 0) {
    return s_.failAt(type.begin, ErrorCode::kMalformed,
                     "expected a tensor type (such as float[2,3]) before constant data, found " +
                         quoted(s_.excerpt(type.begin, type.end)));
  }
  if (!type.has_shape) {
    return s_.failAt(type.begin, ErrorCode::kMalformed,
                     "expected a tensor type with its dims (such as float[2,3]) before constant "
                     "data, found " +
                         quoted(s_.excerpt(type.begin, type.end)) + " (a tensor of unknown rank)");
  }
  if (type.symbolic_dim != nullptr) {
    return s_.expectedAt(type.symbolic_dim, "a number as a dimension of a tensor constant");
  }
  std::span<const int64_t> dims(dims_.data() + type.dims_begin, type.dims_end - type.dims_begin);
  // onyx refuses such dims when it reads a model (elementCount): say where they are.
  auto count = elementCount(dims);
  if (!count) {
    return s_.failAt(type.begin, count.status().code(),
                     "the dims of this tensor constant: " + count.status().message());
  }
  size_t mark = out.mark();
  for (int64_t dim : dims) out.varintField(f::tensor::kDims, static_cast<uint64_t>(dim));
  out.int32Field(f::tensor::kDataType, type.elem_type);
  auto storage = static_cast<uint32_t>(elementTypeInfo(type.elem_type)->storage);
  // onnx's printer writes string data with the '{' before the first element only, so an
  // empty string tensor comes out as `string[0] name }`: read that as empty data.
  bool printed_empty = type.elem_type == kStringType && s_.next() == '}';
  bool values = !printed_empty && s_.accept('{');
  bool external = !values && s_.accept('[');
  // TensorProto numbers name (8) between the 32-bit data fields and double/uint64 data.
  bool name_first = !values || storage > f::tensor::kName;
  if (name_first) out.stringField(f::tensor::kName, name);
  if (values && !tensorValues(out, type.elem_type)) return false;
  if (printed_empty) s_.accept('}');
  if (external) {
    if (!stringEntries(out, f::tensor::kExternalData) || !s_.expect(']')) return false;
    out.int32Field(f::tensor::kDataLocation, f::tensor::kExternal);
  }
  if (!name_first) out.stringField(f::tensor::kName, name);
  out.closeMessage(field, mark);
  return true;
}

// The values after '{', up to and with the '}'. Numeric data is one packed field.
bool Transcoder::tensorValues(WireBuffer& out, int32_t elem_type) {
  if (s_.accept('}')) return true;
  const ElementTypeInfo& info = *elementTypeInfo(elem_type);
  size_t mark = out.mark();
  do {
    Literal literal;
    if (!s_.literal(literal)) return false;
    switch (info.storage) {
      case StorageField::kInt32Data: {
        int64_t value;
        if (!s_.toInt64(literal, value)) return false;
        if (value < INT32_MIN || value > INT32_MAX) {
          return s_.expectedAt(literal.begin, "an integer that fits in 32 bits (" +
                                                  std::string(info.shortName) +
                                                  " data is stored as int32)");
        }
        out.varint(static_cast<uint64_t>(value));  // int32 sign-extends, as protobuf writes it
        break;
      }
      case StorageField::kInt64Data: {
        int64_t value;
        if (!s_.toInt64(literal, value)) return false;
        out.varint(static_cast<uint64_t>(value));
        break;
      }
      case StorageField::kUint64Data: {
        uint64_t value;
        if (!s_.toUint64(literal, value)) return false;
        out.varint(value);
        break;
      }
      case StorageField::kFloatData: {
        float value;
        if (!s_.toFloat(literal, value)) return false;
        out.fixed32(std::bit_cast<uint32_t>(value));
        break;
      }
      case StorageField::kDoubleData: {
        double value;
        if (!s_.toDouble(literal, value)) return false;
        out.fixed64(std::bit_cast<uint64_t>(value));
        break;
      }
      case StorageField::kStringData:
        if (literal.kind != Literal::Kind::kString) {
          return s_.expectedAt(literal.begin != nullptr ? literal.begin : s_.position(),
                               "a quoted string");
        }
        out.stringField(f::tensor::kStringData, literal.string);
        break;
      case StorageField::kNone: return s_.expected("no data for this type");
    }
  } while (s_.accept(','));
  if (!s_.expect('}')) return false;
  if (info.storage != StorageField::kStringData) {
    out.closeMessage(static_cast<uint32_t>(info.storage), mark);
  }
  return true;
}

}  // namespace onyx::text
