// fuzz_model_differential — the same bytes to onyx and to libprotobuf (C++ generated from
// tests/oracle/onnx_oracle.proto), and the two must agree:
//
//  (a) on acceptance. Where one accepts and the other refuses, the case must be one of the
//      deliberate differences listed in tests/fuzz/README.md, each recognised by a precise
//      predicate (onyx's error code and message, checked against the input) — never by
//      excusing a refusal as such;
//  (b) on content. When both accept, libprotobuf reads onyx's output back and that message
//      must equal what libprotobuf read from the input, unknown fields included, with
//      floating-point values compared bit for bit.
//
// Anything else traps, after a description on stderr.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/message.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_oracle.pb.h"
#include "onyx/serde/model_io.h"

namespace onyx::fuzz {
namespace {

namespace pb = google::protobuf;

constexpr uint64_t kMaxFieldNumber = (uint64_t{1} << 29) - 1;

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_model_differential: %s\n%s\n", what, detail.c_str());
  __builtin_trap();
}

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// ---- a descriptor-driven scan of the raw input ------------------------------------------
//
// Walks bytes libprotobuf has already accepted, by the oracle schema, and notes what the
// predicates below need: every known field sent with a wire type its declaration does not
// allow, every key with bits above the 32nd, and how deeply messages and groups nest.
// Unlike the parsed message, the scan also sees oneof members that a later member replaced.

struct Misplaced {
  std::string field;  // the declared field name
  std::string oneof;  // its oneof's name, if any
  int wire_type;
};

struct Scan {
  std::vector<Misplaced> misplaced;
  std::vector<uint64_t> oversized_keys;  // field numbers of keys with bits above the 32nd
  int deepest = 0;
};

int naturalWireType(const pb::FieldDescriptor& field) {
  switch (field.type()) {
    case pb::FieldDescriptor::TYPE_FLOAT:
    case pb::FieldDescriptor::TYPE_FIXED32:
    case pb::FieldDescriptor::TYPE_SFIXED32: return 5;
    case pb::FieldDescriptor::TYPE_DOUBLE:
    case pb::FieldDescriptor::TYPE_FIXED64:
    case pb::FieldDescriptor::TYPE_SFIXED64: return 1;
    case pb::FieldDescriptor::TYPE_STRING:
    case pb::FieldDescriptor::TYPE_BYTES:
    case pb::FieldDescriptor::TYPE_MESSAGE: return 2;
    case pb::FieldDescriptor::TYPE_GROUP: return 3;
    default: return 0;
  }
}

bool allowsWireType(const pb::FieldDescriptor& field, int wire_type) {
  return wire_type == naturalWireType(field) || (field.is_packable() && wire_type == 2);
}

bool scanVarint(std::string_view bytes, size_t& pos, uint64_t& value) {
  value = 0;
  for (int i = 0; i < 10 && pos < bytes.size(); ++i) {
    uint8_t byte = static_cast<uint8_t>(bytes[pos++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if (byte < 0x80) return true;
  }
  return false;
}

// Scans fields of `type` (null inside unknown groups) from `pos` until the end of `bytes`
// or, when `group` is not 0, that group's end key. `depth` counts the enclosing messages and
// groups. False on bytes the scan cannot follow (which libprotobuf would not have accepted).
bool scanFields(const pb::Descriptor* type, std::string_view bytes, size_t& pos, int depth,
                uint64_t group, Scan& scan) {
  if (depth > scan.deepest) scan.deepest = depth;
  while (pos < bytes.size()) {
    uint64_t key;
    if (!scanVarint(bytes, pos, key)) return false;
    if (key > 0xffffffff) scan.oversized_keys.push_back(key >> 3);
    key &= 0xffffffff;  // as libprotobuf reads a key
    uint64_t number = key >> 3;
    int wire_type = static_cast<int>(key & 7);
    if (wire_type == 4) return number == group;
    const pb::FieldDescriptor* field = type != nullptr && number <= kMaxFieldNumber
                                           ? type->FindFieldByNumber(static_cast<int>(number))
                                           : nullptr;
    if (field != nullptr && !allowsWireType(*field, wire_type)) {
      const pb::OneofDescriptor* oneof = field->containing_oneof();
      scan.misplaced.push_back({field->name(), oneof ? oneof->name() : "", wire_type});
      field = nullptr;  // libprotobuf kept it as an unknown field
    }
    uint64_t value;
    switch (wire_type) {
      case 0:
        if (!scanVarint(bytes, pos, value)) return false;
        break;
      case 1:
      case 5: {
        size_t width = wire_type == 1 ? 8 : 4;
        if (bytes.size() - pos < width) return false;
        pos += width;
        break;
      }
      case 2: {
        if (!scanVarint(bytes, pos, value) || value > bytes.size() - pos) return false;
        std::string_view payload = bytes.substr(pos, static_cast<size_t>(value));
        pos += static_cast<size_t>(value);
        if (field != nullptr && field->message_type() != nullptr) {
          size_t inner = 0;
          if (!scanFields(field->message_type(), payload, inner, depth + 1, 0, scan)) {
            return false;
          }
        }
        break;
      }
      case 3:
        if (!scanFields(nullptr, bytes, pos, depth + 1, number, scan)) return false;
        break;
      default: return false;
    }
  }
  return group == 0;
}

// ---- the deliberate differences -------------------------------------------------------
//
// Each returns the name it has in tests/fuzz/README.md when it explains the case at hand.

const char* wireTypeName(int wire_type) {
  switch (wire_type) {
    case 0: return "varint";
    case 1: return "fixed64";
    case 2: return "length-delimited";
    case 3: return "start-group";
    case 4: return "end-group";
    case 5: return "fixed32";
    default: return "invalid";
  }
}

// "wire type ACTUAL where FIELD needs EXPECTED", for a field the scan saw misplaced.
bool isMisplacedField(const Status& status, const Scan& scan) {
  if (status.code() != ErrorCode::kMalformed) return false;
  std::string_view message = status.message();
  constexpr std::string_view kWireType = "wire type ";
  constexpr std::string_view kWhere = " where ";
  constexpr std::string_view kNeeds = " needs ";
  if (!startsWith(message, kWireType)) return false;
  size_t where = message.find(kWhere);
  size_t needs = message.find(kNeeds);
  if (where == std::string_view::npos || needs == std::string_view::npos || needs < where) {
    return false;
  }
  std::string_view actual = message.substr(kWireType.size(), where - kWireType.size());
  std::string_view name = message.substr(where + kWhere.size(), needs - where - kWhere.size());
  for (const Misplaced& m : scan.misplaced) {
    if ((name == m.field || (!m.oneof.empty() && name == m.oneof)) &&
        actual == wireTypeName(m.wire_type)) {
      return true;
    }
  }
  return false;
}

// What onyx's dims check (elementCount) finds in one TensorProto: 0 nothing (a zero dim
// makes any other dims valid); 1 a negative size, the first (`index`, `value` set to it);
// 2 no zero, and a product past INT64_MAX.
int dimsProblem(const pb::Message& tensor, int& index, int64_t& value) {
  const pb::Reflection& reflection = *tensor.GetReflection();
  const pb::FieldDescriptor* dims = tensor.GetDescriptor()->FindFieldByNumber(1);
  int count = reflection.FieldSize(tensor, dims);
  bool empty = false;
  for (int i = 0; i < count; ++i) {
    int64_t dim = reflection.GetRepeatedInt64(tensor, dims, i);
    if (dim < 0) {
      index = i;
      value = dim;
      return 1;
    }
    if (dim == 0) empty = true;
  }
  if (empty) return 0;
  uint64_t product = 1;
  for (int i = 0; i < count; ++i) {
    uint64_t dim = static_cast<uint64_t>(reflection.GetRepeatedInt64(tensor, dims, i));
    if (__builtin_mul_overflow(product, dim, &product) ||
        product > static_cast<uint64_t>(INT64_MAX)) {
      return 2;
    }
  }
  return 0;
}

// Whether some TensorProto in `message`, as libprotobuf merged it, has the problem (onyx
// checks the dims once the whole model is decoded, so it sees merged tensors too).
bool hasDimsProblem(const pb::Message& message, int problem, int index, int64_t value) {
  if (message.GetDescriptor() == onyx_oracle::TensorProto::descriptor()) {
    int found_index = -1;
    int64_t found_value = 0;
    int kind = dimsProblem(message, found_index, found_value);
    if (kind == problem && (problem != 1 || (found_index == index && found_value == value))) {
      return true;
    }
  }
  const pb::Reflection& reflection = *message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  reflection.ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    int count = field->is_repeated() ? reflection.FieldSize(message, field) : 1;
    for (int i = 0; i < count; ++i) {
      const pb::Message& sub = field->is_repeated()
                                   ? reflection.GetRepeatedMessage(message, field, i)
                                   : reflection.GetMessage(message, field);
      if (hasDimsProblem(sub, problem, index, value)) return true;
    }
  }
  return false;
}

// "dims[I] is negative (N)" or "the product of the dims passes INT64_MAX elements", for a
// tensor libprotobuf's reading shows the same problem in.
bool isBadDims(const Status& status, const onyx_oracle::ModelProto& parsed) {
  std::string message = status.message();
  if (status.code() == ErrorCode::kMalformed && startsWith(message, "dims[")) {
    int index = -1;
    long long value = 0;
    int used = 0;
    if (std::sscanf(message.c_str(), "dims[%d] is negative (%lld)%n", &index, &value, &used) != 2 ||
        static_cast<size_t>(used) != message.size() || value >= 0) {
      return false;
    }
    return hasDimsProblem(parsed, 1, index, value);
  }
  if (status.code() == ErrorCode::kLimitExceeded &&
      message == "the product of the dims passes " + std::to_string(INT64_MAX) + " elements") {
    return hasDimsProblem(parsed, 2, 0, 0);
  }
  return false;
}

bool isTooDeep(const Status& status, const Scan& scan, int max_depth) {
  if (status.code() != ErrorCode::kLimitExceeded) return false;
  bool messages =
      status.message() == "messages nest more than " + std::to_string(max_depth) + " deep";
  bool groups = status.message() == "groups nest too deeply";
  return (messages || groups) && scan.deepest > max_depth;
}

// "invalid field number N", N > 2^29-1, for a key the scan saw with bits above the 32nd:
// libprotobuf keeps only the low 32 bits of a (at most 5-byte) key, onyx refuses the number.
bool isOversizedKey(const Status& status, const Scan& scan) {
  constexpr std::string_view kInvalid = "invalid field number ";
  std::string_view message = status.message();
  if (status.code() != ErrorCode::kMalformed || !startsWith(message, kInvalid)) return false;
  std::string number(message.substr(kInvalid.size()));
  char* end = nullptr;
  unsigned long long value = std::strtoull(number.c_str(), &end, 10);
  if (number.empty() || *end != '\0' || value <= kMaxFieldNumber) return false;
  for (uint64_t seen : scan.oversized_keys) {
    if (seen == value) return true;
  }
  return false;
}

// Why onyx (UTF-8 checks already relaxed) may refuse what libprotobuf accepted.
const char* explainOnyxRefusal(const Status& status, std::string_view bytes,
                               const onyx_oracle::ModelProto& parsed, int max_depth) {
  Scan scan;
  size_t pos = 0;
  if (!scanFields(onyx_oracle::ModelProto::descriptor(), bytes, pos, 0, 0, scan)) {
    finding("the oracle accepted bytes the scan cannot follow", status.toString());
  }
  if (isMisplacedField(status, scan)) return "known field with another wire type";
  if (isBadDims(status, parsed)) return "tensor dims negative or overflowing";
  if (isTooDeep(status, scan, max_depth)) return "nesting deeper than max_depth";
  if (isOversizedKey(status, scan)) return "key varint above 32 bits";
  return nullptr;
}

// Why libprotobuf may refuse what onyx accepted: its own limits.
const char* explainProtobufRefusal(std::string_view bytes) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) return "protobuf's 2 GiB limit";
  onyx_oracle::ModelProto unlimited;
  pb::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()),
                                 static_cast<int>(bytes.size()));
  input.SetRecursionLimit(INT_MAX);
  if (unlimited.ParseFromCodedStream(&input) && input.ConsumedEntireMessage()) {
    return "protobuf's recursion limit";
  }
  return nullptr;
}

// ---- content ----------------------------------------------------------------------------

// Compares floats and doubles by their bits (so that NaN payloads and the sign of zero
// count), everything else as the default comparator does.
class BitwiseComparator : public pb::util::SimpleFieldComparator {
 public:
  ComparisonResult Compare(const pb::Message& message_1, const pb::Message& message_2,
                           const pb::FieldDescriptor* field, int index_1, int index_2,
                           const pb::util::FieldContext* context) override {
    switch (field->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        return ResultFromBoolean(floatBits(message_1, field, index_1) ==
                                 floatBits(message_2, field, index_2));
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        return ResultFromBoolean(doubleBits(message_1, field, index_1) ==
                                 doubleBits(message_2, field, index_2));
      default: return SimpleCompare(message_1, message_2, field, index_1, index_2, context);
    }
  }

 private:
  static uint32_t floatBits(const pb::Message& message, const pb::FieldDescriptor* field,
                            int index) {
    const pb::Reflection& r = *message.GetReflection();
    float value = field->is_repeated() ? r.GetRepeatedFloat(message, field, index)
                                       : r.GetFloat(message, field);
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  }
  static uint64_t doubleBits(const pb::Message& message, const pb::FieldDescriptor* field,
                             int index) {
    const pb::Reflection& r = *message.GetReflection();
    double value = field->is_repeated() ? r.GetRepeatedDouble(message, field, index)
                                        : r.GetDouble(message, field);
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  }
};

// libprotobuf's reading of the input against its reading of onyx's output. Unknown fields
// are compared too: MessageDifferencer orders each message's unknown fields by (number,
// wire type), keeping the order of values under the same key — onyx writes them among the
// known fields by number while libprotobuf appends them, and only the order under one key
// means anything on the wire.
void compareContent(const onyx_oracle::ModelProto& expected, const Model& model) {
  Result<std::string> written = serializeModel(model);
  if (!written) finding("onyx cannot serialize a model it decoded", written.status().toString());
  onyx_oracle::ModelProto reread;
  if (!reread.ParseFromString(*written)) {
    finding("libprotobuf refuses what onyx wrote", std::to_string(written->size()) + " bytes");
  }
  BitwiseComparator comparator;
  pb::util::MessageDifferencer differencer;
  differencer.set_field_comparator(&comparator);
  if (differencer.Compare(expected, reread)) return;

  std::string report;
  pb::util::MessageDifferencer reporting;
  reporting.set_field_comparator(&comparator);
  reporting.ReportDifferencesToString(&report);
  reporting.Compare(expected, reread);
  finding("onyx changed the content (left: the input, right: onyx's output)", report);
}

// ---- the comparison ---------------------------------------------------------------------

bool isUtf8Refusal(const Status& status) {
  return status.code() == ErrorCode::kMalformed && status.message() == "not valid UTF-8";
}

void run(std::string_view bytes) {
  LoadOptions strict;
  strict.load_external_data = false;
  LoadOptions relaxed = strict;
  relaxed.validate_utf8 = false;

  Result<Model> checked = parseModel(bytes, nullptr, strict);
  Result<Model> model = parseModel(bytes, nullptr, relaxed);
  // The UTF-8 check may only ever add refusals, each with its own message.
  if (!model && checked) finding("relaxing the UTF-8 check made onyx refuse", "");
  if (!checked && model && !isUtf8Refusal(checked.status())) {
    finding("relaxing the UTF-8 check hid another refusal", checked.status().toString());
  }

  onyx_oracle::ModelProto expected;
  bool oracle_ok = bytes.size() <= static_cast<size_t>(INT_MAX) &&
                   expected.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));

  if (model && !oracle_ok) {
    if (explainProtobufRefusal(bytes) != nullptr) return;
    finding("onyx accepts what libprotobuf refuses", "");
  }
  if (!model && oracle_ok) {
    if (explainOnyxRefusal(model.status(), bytes, expected, relaxed.max_depth) != nullptr) return;
    finding("onyx refuses what libprotobuf accepts", model.status().toString());
  }
  if (model && oracle_ok) compareContent(expected, *model);
}

void ignoreLog(pb::LogLevel, const char*, int, const std::string&) {}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  // Debug builds of the generated code log strings that are not UTF-8; that is not a refusal.
  google::protobuf::SetLogHandler(&onyx::fuzz::ignoreLog);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
