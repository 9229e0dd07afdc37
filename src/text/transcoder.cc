// The model, function, graph, node and attribute rules of the text syntax. The rule each
// function reads is quoted above it (docs/Syntax.md's grammar, with what onnx's parser.cc
// actually does where the two differ).
#include <bit>
#include <optional>
#include <utility>

#include "onyx/core/utf8.h"
#include "serde/field_numbers.h"
#include "text/transcoder.h"

namespace onyx::text {

namespace {

namespace f = ::onyx::field;

using Kind = AttributeKind;

// The list kind holding values of `kind` (int -> ints), and the other way round; each maps
// anything else to itself.
constexpr std::pair<Kind, Kind> kListKinds[] = {
    {Kind::kFloat, Kind::kFloats},         {Kind::kInt, Kind::kInts},
    {Kind::kString, Kind::kStrings},       {Kind::kTensor, Kind::kTensors},
    {Kind::kGraph, Kind::kGraphs},         {Kind::kSparseTensor, Kind::kSparseTensors},
    {Kind::kTypeProto, Kind::kTypeProtos},
};
Kind listOf(Kind kind) {
  for (const auto& [single, list] : kListKinds) {
    if (single == kind) return list;
  }
  return kind;
}
Kind elementOf(Kind kind) {
  for (const auto& [single, list] : kListKinds) {
    if (list == kind) return single;
  }
  return kind;
}
bool isListKind(Kind kind) { return elementOf(kind) != kind; }

}  // namespace

// ---------------------------------------------------------------------------------------
// Entry points

bool Transcoder::begin() {
  size_t valid = validUtf8Prefix(text_);
  if (valid == text_.size()) {
    // A byte-order mark, which some editors put at the start of a UTF-8 file, is not text.
    if (text_.starts_with("\xef\xbb\xbf")) s_.skipBytes(3);
    return true;
  }
  static const char kHex[] = "0123456789abcdef";
  unsigned char byte = static_cast<unsigned char>(text_[valid]);
  std::string found = "the byte 0x";
  found.push_back(kHex[byte >> 4]);
  found.push_back(kHex[byte & 15]);
  return s_.failAt(text_.data() + valid, ErrorCode::kMalformed,
                   "expected UTF-8 text, found " + found);
}

bool Transcoder::end() { return s_.atEnd() || s_.expected("end of input"); }

bool Transcoder::model(WireBuffer& out) { return begin() && modelBody(out) && end(); }

bool Transcoder::graphModel(WireBuffer& out) {
  return begin() && graph(out, f::model::kGraph, TextString()) && end();
}

bool Transcoder::nodesModel(WireBuffer& out) {
  if (!begin()) return false;
  size_t mark = out.mark();
  if (!nodeList(out, f::graph::kNode)) return false;
  out.closeMessage(f::model::kGraph, mark);
  return end();
}

bool Transcoder::functionModel(WireBuffer& out) {
  return begin() && function(out, f::model::kFunctions) && end();
}

bool Transcoder::functionsModel(WireBuffer& out) {
  if (!begin()) return false;
  while (!s_.atEnd()) {
    if (!function(out, f::model::kFunctions)) return false;
  }
  return true;
}

bool Transcoder::type(WireBuffer& out) { return begin() && typeBody(out, nullptr) && end(); }

// ---------------------------------------------------------------------------------------
// Model

// model ::= ('<' key ':' value (',' key ':' value)* '>')? graph function*
// Repeated keys are taken as onnx takes them: the last value of a single field wins, and
// opset_import and metadata_props lists add up.
bool Transcoder::modelBody(WireBuffer& out) {
  BufferStack::Lease opsets(buffers_);
  BufferStack::Lease metadata(buffers_);
  std::optional<int64_t> ir_version;
  std::optional<int64_t> model_version;
  TextString producer_name;
  TextString producer_version;
  TextString domain;
  TextString doc_string;
  if (s_.accept('<')) {
    do {
      s_.next();
      const char* at = s_.position();
      std::string_view key = s_.identifier();
      int64_t number;
      if (key == "ir_version") {
        if (!s_.expect(':') || !s_.int64Value(number)) return false;
        ir_version = number;
      } else if (key == "model_version") {
        if (!s_.expect(':') || !s_.int64Value(number)) return false;
        model_version = number;
      } else if (key == "opset_import") {
        if (!s_.expect(':') || !opsetImports(*opsets, f::model::kOpsetImport)) return false;
      } else if (key == "producer_name") {
        if (!s_.expect(':') || !s_.stringValue(producer_name)) return false;
      } else if (key == "producer_version") {
        if (!s_.expect(':') || !s_.stringValue(producer_version)) return false;
      } else if (key == "domain") {
        if (!s_.expect(':') || !s_.stringValue(domain)) return false;
      } else if (key == "doc_string") {
        if (!s_.expect(':') || !s_.stringValue(doc_string)) return false;
      } else if (key == "metadata_props") {
        if (!s_.expect(':') || !s_.expect('[')) return false;
        if (!s_.accept(']')) {
          if (!stringEntries(*metadata, f::model::kMetadataProps) || !s_.expect(']')) return false;
        }
      } else {
        return s_.expectedAt(at,
                             "a model header key (ir_version, opset_import, producer_name, "
                             "producer_version, domain, model_version, doc_string or "
                             "metadata_props)");
      }
    } while (s_.accept(','));
    if (!s_.expect('>')) return false;
  }
  if (ir_version) out.varintField(f::model::kIrVersion, static_cast<uint64_t>(*ir_version));
  if (producer_name.present()) out.stringField(f::model::kProducerName, producer_name);
  if (producer_version.present()) out.stringField(f::model::kProducerVersion, producer_version);
  if (domain.present()) out.stringField(f::model::kDomain, domain);
  if (model_version)
    out.varintField(f::model::kModelVersion, static_cast<uint64_t>(*model_version));
  if (doc_string.present()) out.stringField(f::model::kDocString, doc_string);
  if (!graph(out, f::model::kGraph, TextString())) return false;
  out.append(*opsets);
  out.append(*metadata);
  while (!s_.atEnd()) {
    if (!function(out, f::model::kFunctions)) return false;
  }
  return true;
}

// '[' (quoted-domain ':' int (',' quoted-domain ':' int)*)? ']'
bool Transcoder::opsetImports(WireBuffer& out, uint32_t field) {
  if (!s_.expect('[')) return false;
  if (s_.accept(']')) return true;
  do {
    size_t mark = out.mark();
    TextString domain;
    int64_t version;
    if (s_.next() != '"') return s_.expected("a quoted domain (\"\" for the default one)");
    if (!s_.quoted(domain)) return false;
    out.stringField(f::opset::kDomain, domain);
    if (!s_.expect(':') || !s_.int64Value(version)) return false;
    out.varintField(f::opset::kVersion, static_cast<uint64_t>(version));
    out.closeMessage(field, mark);
  } while (s_.accept(','));
  return s_.expect(']');
}

// str-str (',' str-str)*, where str-str ::= quoted-str ':' quoted-str
bool Transcoder::stringEntries(WireBuffer& out, uint32_t field) {
  do {
    size_t mark = out.mark();
    TextString key;
    TextString value;
    if (!s_.stringValue(key)) return false;
    out.stringField(f::entry::kKey, key);
    if (!s_.expect(':') || !s_.stringValue(value)) return false;
    out.stringField(f::entry::kValue, value);
    out.closeMessage(field, mark);
  } while (s_.accept(','));
  return true;
}

// ---------------------------------------------------------------------------------------
// Function

// function ::= ('<' key ':' value (',' key ':' value)* '>')? quotable-id
//              ('<' (quotable-id | attr) (',' (quotable-id | attr))* '>')?
//              '(' (type? quotable-id (',' type? quotable-id)*)? ')' '=>'
//              '(' (type? quotable-id (',' type? quotable-id)*)? ')'
//              ('<' (value-info (',' value-info)*)? '>')? node-list
// The typed inputs and outputs become value_info entries, before those of the '<' list.
bool Transcoder::function(WireBuffer& out, uint32_t field) {
  BufferStack::Lease opsets(buffers_);
  BufferStack::Lease attribute_names(buffers_);
  BufferStack::Lease attribute_defaults(buffers_);
  BufferStack::Lease value_infos(buffers_);
  TextString doc_string;
  TextString domain;
  TextString overload;
  if (s_.accept('<')) {
    do {
      s_.next();
      const char* at = s_.position();
      std::string_view key = s_.identifier();
      if (key == "opset_import") {
        if (!s_.expect(':') || !opsetImports(*opsets, f::function::kOpsetImport)) return false;
      } else if (key == "doc_string") {
        if (!s_.expect(':') || !s_.stringValue(doc_string)) return false;
      } else if (key == "domain") {
        if (!s_.expect(':') || !s_.stringValue(domain)) return false;
      } else if (key == "overload") {
        if (!s_.expect(':') || !s_.stringValue(overload)) return false;
      } else {
        return s_.expectedAt(
            at, "a function header key (opset_import, domain, overload or doc_string)");
      }
    } while (s_.accept(','));
    if (!s_.expect('>')) return false;
  }

  size_t mark = out.mark();
  TextString name;
  if (!quotableName(name, "a function name")) return false;
  out.stringField(f::function::kName, name);

  if (s_.accept('<')) {
    do {
      TextString attribute_name;
      if (!quotableName(attribute_name, "an attribute name")) return false;
      int next = s_.next();
      if (next == ':' || next == '=') {
        // A default value. onnx ignores an error here and goes on from wherever the default
        // stopped; a default that does not parse is an error here.
        if (!attribute(*attribute_defaults, f::function::kAttributeProto, attribute_name)) {
          return false;
        }
      } else {
        attribute_names->stringField(f::function::kAttribute, attribute_name);
      }
    } while (s_.accept(','));
    if (!s_.expect('>')) return false;
  }

  for (uint32_t list : {f::function::kInput, f::function::kOutput}) {
    if (list == f::function::kOutput && !arrow()) return false;
    if (!s_.expect('(')) return false;
    if (s_.accept(')')) continue;
    do {
      bool typed = nextIsType();
      if (typed) {
        type_buffer_.clear();
        if (!typeBody(type_buffer_, nullptr)) return false;
      }
      TextString value_name;
      if (!quotableName(value_name,
                        list == f::function::kInput ? "an input name" : "an output name")) {
        return false;
      }
      out.stringField(list, value_name);
      if (typed) {
        size_t info = value_infos->mark();
        value_infos->stringField(f::value_info::kName, value_name);
        value_infos->appendField(f::value_info::kType, type_buffer_);
        value_infos->closeMessage(f::function::kValueInfo, info);
      }
    } while (s_.accept(','));
    if (!s_.expect(')')) return false;
  }
  out.append(*attribute_names);

  if (s_.accept('<') && !s_.accept('>')) {
    do {
      if (!valueInfo(*value_infos, f::function::kValueInfo, nullptr, false)) return false;
    } while (s_.accept(','));
    if (!s_.expect('>')) return false;
  }
  if (!nodeList(out, f::function::kNode)) return false;

  if (doc_string.present()) out.stringField(f::function::kDocString, doc_string);
  out.append(*opsets);
  if (domain.present()) out.stringField(f::function::kDomain, domain);
  out.append(*attribute_defaults);
  out.append(*value_infos);
  if (overload.present()) out.stringField(f::function::kOverload, overload);
  out.closeMessage(field, mark);
  return true;
}

// ---------------------------------------------------------------------------------------
// Graph

// graph ::= quotable-id ('(' (value-info ('=' constant-data)?)* ')')? '=>'
//           '(' value-infos? ')' ('<' (value-info ('=' constant-data)?)* '>')? node-list
// Syntax.md makes the input list's parentheses required; onnx's parser does not, so
// `g => (y) {...}` is a graph without inputs. Types are optional everywhere but before an
// initializer. An input with '=' is an input and an initializer; an entry of the '<' list
// with '=' is an initializer only.
bool Transcoder::graph(WireBuffer& out, uint32_t field, TextString name) {
  Depth depth(*this);
  if (!depth.ok()) return false;
  if (!name.present() && !quotableName(name, "a graph name")) return false;
  // The text gives a graph's nodes last; GraphProto wants them first, then the name and the
  // initializers (`named`), then inputs, outputs and value_info (`declared`).
  BufferStack::Lease named(buffers_);
  BufferStack::Lease declared(buffers_);
  size_t mark = out.mark();
  named->stringField(f::graph::kName, name);
  if (s_.accept('(') && !s_.accept(')')) {
    do {
      if (!valueInfo(*declared, f::graph::kInput, &*named, true)) return false;
    } while (s_.accept(','));
    if (!s_.expect(')')) return false;
  }
  if (!arrow() || !s_.expect('(')) return false;
  if (!s_.accept(')')) {
    do {
      if (!valueInfo(*declared, f::graph::kOutput, nullptr, false)) return false;
    } while (s_.accept(','));
    if (!s_.expect(')')) return false;
  }
  if (s_.accept('<') && !s_.accept('>')) {
    do {
      if (!valueInfo(*declared, f::graph::kValueInfo, &*named, false)) return false;
    } while (s_.accept(','));
    if (!s_.expect('>')) return false;
  }
  if (!nodeList(out, f::graph::kNode)) return false;
  out.append(*named);
  out.append(*declared);
  out.closeMessage(field, mark);
  return true;
}

// value-info ::= type? quotable-id ('=' constant-data)?, the '=' part only where
// `initializers` is given. The entry goes to `infos` unless it is an initializer and
// `info_with_initializer` is false.
bool Transcoder::valueInfo(WireBuffer& infos, uint32_t info_field, WireBuffer* initializers,
                           bool info_with_initializer) {
  s_.next();
  const char* type_at = s_.position();
  TypeSummary summary;
  bool typed = nextIsType();
  if (typed) {
    type_buffer_.clear();
    if (!typeBody(type_buffer_, &summary)) return false;
  }
  TextString name;
  if (!quotableName(name, typed ? "a name after the type" : "a type or a name")) return false;
  bool initializer = initializers != nullptr && s_.accept('=');
  if (!initializer || info_with_initializer) {
    size_t mark = infos.mark();
    infos.stringField(f::value_info::kName, name);
    if (typed) infos.appendField(f::value_info::kType, type_buffer_);
    infos.closeMessage(info_field, mark);
  }
  if (!initializer) return true;
  if (!typed) {
    return s_.expectedAt(type_at,
                         "a tensor type before the name of an initializer (as in float[2] w = "
                         "{1, 2})");
  }
  return tensorConstant(*initializers, f::graph::kInitializer, summary, name);
}

// '=' '>' with nothing between the two characters, as onnx reads it.
bool Transcoder::arrow() {
  if (!s_.accept('=')) return s_.expected("'=>'");
  if (!s_.acceptHere('>'))
    return s_.expectedAt(s_.position(), "'>' right after '=' (the arrow '=>')");
  return true;
}

// ---------------------------------------------------------------------------------------
// Nodes

// node-list ::= '{' node* '}'
bool Transcoder::nodeList(WireBuffer& out, uint32_t field) {
  if (!s_.expect('{')) return false;
  while (!s_.accept('}')) {
    if (s_.atEnd()) return s_.expected("a node or '}'");
    if (!node(out, field)) return false;
  }
  return true;
}

// node ::= ('[' quotable-id? ']')? names '=' qualified-id (':' id)? attr-list?
//          '(' names ')' attr-list?, the second attr-list only without the first.
// Every node gets a domain and an op_type field, empty when the text has none, as onnx sets
// both; a label gives a name field even when empty ("[]").
bool Transcoder::node(WireBuffer& out, uint32_t field) {
  size_t outputs_begin = names_.size();
  TextString label;
  if (s_.accept('[')) {
    if (s_.next() == '"') {
      if (!s_.quoted(label)) return false;
    } else {
      label = TextString::plain(s_.identifier());
    }
    if (!s_.expect(']')) return false;
  }
  if (!nameList(names_)) return false;
  size_t outputs_end = names_.size();
  if (!s_.expect('=')) return false;
  TextString domain;
  TextString op_type;
  if (!operatorName(domain, op_type)) return false;
  TextString overload;
  if (s_.accept(':')) {
    std::string_view id = s_.identifier();
    if (id.empty()) return s_.expected("an overload name after ':'");
    overload = TextString::plain(id);
  }
  BufferStack::Lease attributes(buffers_);
  bool attributes_first = s_.next() == '<';
  if (attributes_first && !attributeList(*attributes)) return false;
  if (!s_.expect('(')) return false;
  size_t inputs_begin = names_.size();
  if (!nameList(names_)) return false;
  size_t inputs_end = names_.size();
  if (!s_.expect(')')) return false;
  if (!attributes_first && s_.next() == '<' && !attributeList(*attributes)) return false;

  size_t mark = out.mark();
  for (size_t i = inputs_begin; i < inputs_end; ++i) out.stringField(f::node::kInput, names_[i]);
  for (size_t i = outputs_begin; i < outputs_end; ++i) {
    out.stringField(f::node::kOutput, names_[i]);
  }
  if (label.present()) out.stringField(f::node::kName, label);
  out.stringField(f::node::kOpType, op_type);
  out.append(*attributes);
  out.stringField(f::node::kDomain, domain);
  if (overload.present()) out.stringField(f::node::kOverload, overload);
  out.closeMessage(field, mark);
  names_.resize(outputs_begin);
  return true;
}

// qualified-id ::= id ('.' id)*: the last part is the operator, the others its domain. As in
// onnx, the operator may be missing altogether (`x = (y)`: empty op_type), and a leading dot
// is dropped (`.Relu` has the domain "").
bool Transcoder::operatorName(TextString& domain, TextString& op_type) {
  s_.next();
  const char* start = s_.position();
  std::string_view id = s_.identifier();
  const char* first = nullptr;
  const char* last = nullptr;
  size_t size = 0;
  while (s_.accept('.')) {
    if (!id.empty()) {
      if (first == nullptr) {
        first = id.data();
      } else {
        ++size;
      }
      size += id.size();
      last = id.data() + id.size();
    }
    id = s_.identifier();
    if (id.empty()) return s_.expected("an operator name after '.'");
  }
  op_type = TextString::plain(id);
  if (first == nullptr) {
    domain = TextString::plain(std::string_view(start, 0));
  } else {
    bool contiguous = size == static_cast<size_t>(last - first);
    domain = {first, last, size, contiguous ? TextString::Form::kPlain : TextString::Form::kDotted};
  }
  return true;
}

// names ::= (quotable-id? (',' quotable-id?)*)?: an empty name between commas is an omitted
// optional input or output; a trailing comma adds nothing (`Op(x,)` has one input, `Op(,)`
// one empty one), as in onnx.
bool Transcoder::nameList(std::vector<TextString>& names) {
  TextString name;
  bool found;
  if (!optionalName(name, found)) return false;
  if (!found) return true;
  names.push_back(name);
  while (s_.accept(',')) {
    if (!optionalName(name, found)) return false;
    if (!found) break;
    names.push_back(name);
  }
  return true;
}

bool Transcoder::optionalName(TextString& name, bool& found) {
  if (s_.next() == '"') {
    found = true;
    return s_.quoted(name);
  }
  std::string_view id = s_.identifier();
  name = TextString::plain(id);
  found = !id.empty() || s_.next() == ',';
  return true;
}

// ---------------------------------------------------------------------------------------
// Attributes

// attr-list ::= '<' attr (',' attr)* '>'
bool Transcoder::attributeList(WireBuffer& out) {
  if (!s_.expect('<')) return false;
  do {
    std::string_view id = s_.identifier();
    if (id.empty()) return s_.expected("an attribute name");
    if (!attribute(out, f::node::kAttribute, TextString::plain(id))) return false;
  } while (s_.accept(','));
  return s_.expect('>');
}

// attr ::= id (':' attr-type)? '=' (value | '[' (value (',' value)*)? ']'), after the name.
// A list takes its type from its elements, and each element after the first must have the
// type of those before it, as onnx checks (an int where floats are expected is read as a
// float). Where onnx drops the tensors, graphs and types of a list (it keeps only numbers
// and strings), they are kept here as `tensors`, `graphs` and `type_protos`: onnx's printer
// writes such lists, and they must come back.
bool Transcoder::attribute(WireBuffer& out, uint32_t field, const TextString& name) {
  size_t mark = out.mark();
  out.stringField(f::attribute::kName, name);
  Kind declared = Kind::kUndefined;
  if (s_.accept(':')) {
    s_.next();
    const char* at = s_.position();
    declared = attributeKindNamed(s_.identifier());
    if (declared == Kind::kUndefined) {
      return s_.expectedAt(at,
                           "an attribute type (int, float, string, tensor, graph, type_proto, "
                           "sparse_tensor, or one of them in the plural, such as ints)");
    }
  }
  if (!s_.expect('=')) return false;
  Kind type = declared;
  TextString reference;
  s_.next();
  const char* value_at = s_.position();
  // onnx's printer writes an empty list of strings as `name: strings = ]` (it prints the '['
  // with the first element); that reads as the empty list it was.
  if (isListKind(declared) && s_.accept(']')) {
    // the empty list
  } else if (s_.accept('[')) {
    if (s_.next() == ']') {
      if (declared == Kind::kUndefined) {
        return s_.failAt(value_at, ErrorCode::kMalformed,
                         "an empty list needs the attribute's type, as in `pads: ints = []`");
      }
      if (!isListKind(declared)) {
        return s_.failAt(value_at, ErrorCode::kMalformed,
                         "expected a value of type " + std::string(attributeKindName(declared)) +
                             ", found a list");
      }
    } else {
      size_t ints_begin = ints_.size();
      size_t floats_begin = floats_.size();
      size_t strings_begin = strings_.size();
      do {
        Kind kind;
        TextString dropped;
        if (!attributeValue(out, elementOf(type), true, kind, dropped)) return false;
        if (kind != Kind::kUndefined) type = listOf(kind);
      } while (s_.accept(','));
      for (size_t i = floats_begin; i < floats_.size(); ++i) {
        out.fixed32Field(f::attribute::kFloats, std::bit_cast<uint32_t>(floats_[i]));
      }
      for (size_t i = ints_begin; i < ints_.size(); ++i) {
        out.varintField(f::attribute::kInts, static_cast<uint64_t>(ints_[i]));
      }
      for (size_t i = strings_begin; i < strings_.size(); ++i) {
        out.stringField(f::attribute::kStrings, strings_[i]);
      }
      ints_.resize(ints_begin);
      floats_.resize(floats_begin);
      strings_.resize(strings_begin);
    }
    if (!s_.expect(']')) return false;
  } else {
    Kind kind;
    if (!attributeValue(out, declared, false, kind, reference)) return false;
    if (kind != Kind::kUndefined) type = kind;
  }
  if (type != Kind::kUndefined) out.int32Field(f::attribute::kType, static_cast<int32_t>(type));
  if (reference.present()) out.stringField(f::attribute::kRefAttrName, reference);
  out.closeMessage(field, mark);
  return true;
}

// value ::= tensor-constant | type | graph | number | quoted-str | '@' quotable-id
// What a value is follows from how it starts, in onnx's order: a type name starts a tensor
// constant when a name, '=' or '{' follows the type, else a type; another identifier is inf
// or nan, else the name of a graph; '@' a reference to an attribute of the enclosing
// function. Beyond onnx, so that what its printer writes comes back: a quoted string
// followed by '(' or '=>' names a graph (a graph name that is not an identifier), and a
// quoted string, '[' or '}' after a type is a tensor constant's name, its external data or
// the end of its (empty) string data.
// Elements of a list are gathered in `ints_`, `floats_`, `strings_` (numbers and strings)
// or written as list fields (messages); a reference in a list is dropped, as onnx drops it.
bool Transcoder::attributeValue(WireBuffer& out, AttributeKind expected, bool in_list,
                                AttributeKind& kind, TextString& reference) {
  kind = Kind::kUndefined;
  int c = s_.next();
  const char* at = s_.position();
  auto addFloat = [&](float value) {
    kind = Kind::kFloat;
    if (in_list) {
      floats_.push_back(value);
    } else {
      out.fixed32Field(f::attribute::kF, std::bit_cast<uint32_t>(value));
    }
  };
  if (isIdentifierStart(c)) {
    if (nextIsType()) {
      TypeSummary summary;
      type_buffer_.clear();
      if (!typeBody(type_buffer_, &summary)) return false;
      int after = s_.next();
      if (after == '{' || after == '=' || after == '"' || after == '[' || after == '}' ||
          isIdentifierStart(after)) {
        kind = Kind::kTensor;
        TextString name;
        if (after == '"') {
          if (!s_.quoted(name)) return false;
        } else {
          name = TextString::plain(s_.identifier());
        }
        s_.accept('=');
        if (!tensorConstant(out, in_list ? f::attribute::kTensors : f::attribute::kT, summary,
                            name)) {
          return false;
        }
      } else {
        kind = Kind::kTypeProto;
        out.appendField(in_list ? f::attribute::kTypeProtos : f::attribute::kTp, type_buffer_);
      }
    } else if (s_.isFloatWordAt(at)) {
      Literal literal;
      float value;
      if (!s_.literal(literal) || !s_.toFloat(literal, value)) return false;
      addFloat(value);
    } else {
      kind = Kind::kGraph;
      if (!graph(out, in_list ? f::attribute::kGraphs : f::attribute::kG, TextString())) {
        return false;
      }
    }
  } else if (s_.accept('@')) {
    TextString name;
    if (!quotableName(name, "the name of a function attribute after '@'")) return false;
    if (!in_list) reference = name;
  } else {
    Literal literal;
    if (!s_.literal(literal)) return false;
    switch (literal.kind) {
      case Literal::Kind::kNone:
        return s_.expectedAt(at,
                             "an attribute value (a number, a quoted string, a type, a tensor, a "
                             "graph or @name)");
      case Literal::Kind::kInt:
        if (expected == Kind::kFloat) {
          // Read as a float from the text, so that "-0" stays negative zero (as onnx does).
          float value;
          if (!s_.toFloat(literal, value)) return false;
          addFloat(value);
        } else {
          int64_t value;
          if (!s_.toInt64(literal, value)) return false;
          kind = Kind::kInt;
          if (in_list) {
            ints_.push_back(value);
          } else {
            out.varintField(f::attribute::kI, static_cast<uint64_t>(value));
          }
        }
        break;
      case Literal::Kind::kFloat: {
        float value;
        if (!s_.toFloat(literal, value)) return false;
        addFloat(value);
        break;
      }
      case Literal::Kind::kString: {
        int next = s_.next();
        if (next == '(' || (next == '=' && s_.byteAt(s_.position() + 1) == '>')) {
          kind = Kind::kGraph;
          if (!graph(out, in_list ? f::attribute::kGraphs : f::attribute::kG, literal.string)) {
            return false;
          }
        } else {
          kind = Kind::kString;
          if (in_list) {
            strings_.push_back(literal.string);
          } else {
            out.stringField(f::attribute::kS, literal.string);
          }
        }
        break;
      }
    }
  }
  // A reference has no type of its own: alone it takes the annotation's, in a list it
  // matches none (onnx's rule).
  if (expected != Kind::kUndefined && kind != expected && (in_list || kind != Kind::kUndefined)) {
    return s_.expectedAt(at, "a value of type " + std::string(attributeKindName(expected)));
  }
  return true;
}

}  // namespace onyx::text
