// The printer walks the IR once, writing text into one buffer and recording in a LossLog
// what the syntax cannot hold. What "the syntax" is, is decided by onnx's parser
// (onnx/defs/parser.cc at the mirror's HEAD); the places where it is narrower than
// docs/Syntax.md's grammar are noted where they matter.
#include "onyx/text/printer.h"

#include <fmt/format.h>

#include "text/loss_log.h"
#include "text/tensor_literal.h"
#include "text/text_writer.h"

namespace onyx {

namespace text {
namespace {

// The value fields of an AttributeProto, in the order a missing type is guessed from them.
struct AttributeFields {
  static constexpr size_t kCount = 14;

  explicit AttributeFields(const Attribute& a) {
    const AttributeRareFields& lists = a.rare();
    set[0] = a.f.has_value();
    set[1] = a.i.has_value();
    set[2] = a.s.has_value();
    set[3] = a.t != nullptr;
    set[4] = a.g != nullptr;
    set[5] = lists.sparse_tensor != nullptr;
    set[6] = lists.tp != nullptr;
    set[7] = !a.floats.empty();
    set[8] = !a.ints.empty();
    set[9] = !lists.strings.empty();
    set[10] = !lists.tensors.empty();
    set[11] = !lists.graphs.empty();
    set[12] = !lists.sparse_tensors.empty();
    set[13] = !lists.type_protos.empty();
  }
  static constexpr AttributeKind kKind[kCount] = {
      AttributeKind::kFloat,         AttributeKind::kInt,       AttributeKind::kString,
      AttributeKind::kTensor,        AttributeKind::kGraph,     AttributeKind::kSparseTensor,
      AttributeKind::kTypeProto,     AttributeKind::kFloats,    AttributeKind::kInts,
      AttributeKind::kStrings,       AttributeKind::kTensors,   AttributeKind::kGraphs,
      AttributeKind::kSparseTensors, AttributeKind::kTypeProtos};

  AttributeKind guess() const {
    for (size_t k = 0; k < kCount; ++k) {
      if (set[k]) return kKind[k];
    }
    return AttributeKind::kUndefined;
  }
  bool set[kCount] = {};
};

// A graph given as an attribute value is read back only when its name is an identifier
// that reads neither as a type nor as a float (onnx's parser looks at the first word of an
// attribute value to decide what it is); a quoted name would read as a string.
bool isAttributeGraphName(std::string_view name) {
  return isIdentifier(name) && !isTypeKeyword(name) && !readsAsFloatWord(name);
}

std::string_view valueName(const Value* value) {
  return value != nullptr ? value->name() : std::string_view();
}

std::string_view infoName(const ValueInfo& info) {
  const Value* bound = info.bound();
  return bound != nullptr ? bound->name() : info.name.value_or("");
}

// Whether type() can write `type` (perhaps losing some of it), without recording anything.
bool canSpell(const Type& type) {
  switch (type.kind) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor: return elementTypeInfo(type.elem_type.value_or(0)) != nullptr;
    case Type::Kind::kSequence:
    case Type::Kind::kOptional: return type.elem != nullptr && canSpell(*type.elem);
    case Type::Kind::kMap:
      return elementTypeInfo(type.key_type.value_or(0)) != nullptr && type.elem != nullptr &&
             canSpell(*type.elem);
    case Type::Kind::kOpaque: return true;
    case Type::Kind::kNone: break;
  }
  return false;
}

std::string countOf(size_t count, const char* one, const char* many) {
  return fmt::format("{} {}", count, count == 1 ? one : many);
}

enum class AttributePlace {
  kNode,             // in a node's <...>: the name must be an identifier
  kFunctionDefault,  // in a function's <...>: the name may be quoted
};

class Printer {
 public:
  Printer(std::string& out, const PrintOptions& options, bool record, bool write_data)
      : w_(out),
        log_(options.loss_comments ? &out : nullptr, record),
        unit_(options.indent),
        write_data_(write_data),
        elide_over_(options.elide_tensors_over),
        elided_shown_(options.elided_elements) {}

  LossLog& log() { return log_; }
  TextWriter& writer() { return w_; }

  void model(const Model& model);
  void graph(const Graph& graph, int indent, bool as_attribute);
  void function(const Function& function);
  void node(const Node& node, int indent);
  bool attribute(const Attribute& attribute, int indent, AttributePlace place);
  bool type(const Type& type);
  bool tensor(const Tensor& tensor, TensorPlace place, int indent);

 private:
  void beginStatement(int indent) {
    log_.beginStatement(w_.size(), indent);
    w_.spaces(indent);
  }
  void endStatement() { log_.endStatement(); }

  void modelHeader(const Model& model);
  void opsetList(const ArenaList<OperatorSetId>& opsets);
  void entryList(const ArenaList<StringStringEntry>& entries, std::string_view field);
  void valueInfo(const ValueInfo& info, bool with_type);
  void valueInfoList(const ArenaList<ValueInfo*>& list, std::string_view field);
  void loseValueInfoExtras(const ValueInfo& info);
  void graphDeclarations(const Graph& graph, int indent, const ArenaList<ValueInfo*>& value_info,
                         size_t first_value_info, bool with_initializers);
  void nodeList(const Graph& graph, int indent);
  void attributeList(const ArenaList<Attribute*>& attributes, int indent, AttributePlace place,
                     bool& opened);
  void attributeValue(const Attribute& attribute, AttributeKind kind, int indent, bool& written);
  void shape(const TensorShape* shape);
  bool elementType(std::optional<int32_t> code, std::string_view field);
  void plainWord(std::string_view text, std::string_view field, const char* what);

  TextWriter w_;
  LossLog log_;
  int unit_;
  bool write_data_;
  uint64_t elide_over_;
  uint64_t elided_shown_;
};

// ---- model ----------------------------------------------------------------------------

void Printer::model(const Model& model) {
  beginStatement(0);
  modelHeader(model);
  for (size_t i = 0; i < model.training_info.size(); ++i) {
    LossLog::Scope scope(log_, "training_info", i);
    log_.lose("", "training graphs have no text form");
  }
  if (!model.configuration.empty()) {
    log_.lose("configuration",
              countOf(model.configuration.size(), "device configuration", "device configurations"));
  }
  log_.loseUnknown(model.unknown);
  endStatement();

  {
    LossLog::Scope scope(log_, "graph");
    if (model.graph != nullptr) {
      graph(*model.graph, 0, false);
    } else {
      beginStatement(0);
      log_.lose("", "absent; the text has an empty graph in its place");
      w_.raw("\"\" () => () {\n}");
      endStatement();
    }
  }
  w_.raw('\n');
  for (size_t i = 0; i < model.functions.size(); ++i) {
    const Function& f = *model.functions[i];
    LossLog::Scope scope(log_, "functions", i, f.nameOrEmpty());
    w_.raw('\n');
    function(f);
    w_.raw('\n');
  }
}

void Printer::modelHeader(const Model& model) {
  // Only the fields that are set: an absent field and a field set to its default differ in
  // the binary, and the text keeps that apart wherever it can.
  bool any = false;
  auto key = [&](const char* name) {
    w_.raw(any ? ",\n" : "<\n");
    any = true;
    w_.spaces(unit_);
    w_.raw(name);
    w_.raw(": ");
  };
  if (model.ir_version) {
    key("ir_version");
    w_.integer(*model.ir_version);
  }
  if (!model.opset_import.empty()) {
    key("opset_import");
    opsetList(model.opset_import);
  }
  if (model.producer_name) {
    key("producer_name");
    w_.quoted(*model.producer_name);
  }
  if (model.producer_version) {
    key("producer_version");
    w_.quoted(*model.producer_version);
  }
  if (model.domain) {
    key("domain");
    w_.quoted(*model.domain);
  }
  if (model.model_version) {
    key("model_version");
    w_.integer(*model.model_version);
  }
  if (model.doc_string) {
    key("doc_string");
    w_.quoted(*model.doc_string);
  }
  if (!model.metadata_props.empty()) {
    key("metadata_props");
    entryList(model.metadata_props, "metadata_props");
  }
  if (any) w_.raw("\n>\n");
}

void Printer::opsetList(const ArenaList<OperatorSetId>& opsets) {
  w_.raw('[');
  for (size_t i = 0; i < opsets.size(); ++i) {
    const OperatorSetId& opset = opsets[i];
    if (i > 0) w_.raw(", ");
    w_.quoted(opset.domain.value_or(""));
    w_.raw(" : ");
    w_.integer(opset.version.value_or(0));
    LossLog::Scope scope(log_, "opset_import", i, opset.domain.value_or(""));
    log_.loseUnknown(opset.unknown);
  }
  w_.raw(']');
}

void Printer::entryList(const ArenaList<StringStringEntry>& entries, std::string_view field) {
  w_.raw('[');
  for (size_t i = 0; i < entries.size(); ++i) {
    const StringStringEntry& entry = entries[i];
    if (i > 0) w_.raw(", ");
    w_.quoted(entry.key.value_or(""));
    w_.raw(": ");
    w_.quoted(entry.value.value_or(""));
    LossLog::Scope scope(log_, field, i, entry.key.value_or(""));
    log_.loseUnknown(entry.unknown);
  }
  w_.raw(']');
}

// ---- graphs -----------------------------------------------------------------------------

void Printer::graph(const Graph& graph, int indent, bool as_attribute) {
  // A graph given as an attribute value shares its node's line, so what it loses is said
  // before that line; a graph of its own starts a statement.
  if (!as_attribute) beginStatement(indent);
  std::string_view name = graph.name.value_or("");
  if (!as_attribute) {
    w_.name(name);
  } else if (isAttributeGraphName(name)) {
    w_.raw(name);
  } else {
    std::string stand_in = identifierStandIn(name);
    log_.lose("name", fmt::format("{} as the name of a graph given as an attribute (which must be "
                                  "an identifier and read as neither a type nor a number); "
                                  "written as {}",
                                  name.empty() ? "empty" : "not usable", stand_in));
    w_.raw(stand_in);
  }
  w_.raw(' ');
  valueInfoList(graph.inputs, "input");
  w_.raw(" => ");
  valueInfoList(graph.outputs, "output");

  if (!graph.doc_string.value_or("").empty()) log_.lose("doc_string", *graph.doc_string);
  for (size_t i = 0; i < graph.sparse_initializers.size(); ++i) {
    const SparseTensor& sparse = *graph.sparse_initializers[i];
    LossLog::Scope scope(log_, "sparse_initializer", i,
                         sparse.values != nullptr ? sparse.values->nameOrEmpty() : "");
    log_.lose("", "sparse tensors have no text form");
  }
  if (!graph.quantization_annotation.empty()) {
    log_.lose("quantization_annotation",
              countOf(graph.quantization_annotation.size(), "annotation", "annotations"));
  }
  if (!graph.metadata_props.empty()) {
    log_.lose("metadata_props", countOf(graph.metadata_props.size(), "entry", "entries"));
  }
  log_.loseUnknown(graph.unknown);
  if (!as_attribute) endStatement();

  graphDeclarations(graph, indent, graph.value_info, 0, true);
  nodeList(graph, indent);
}

// The `<...>` list after a graph's or function's outputs: initializers (`type name = data`)
// and value_info (`type name`), one per line. The parser files each entry by whether it has
// `= data`, keeping the order within each list.
void Printer::graphDeclarations(const Graph& graph, int indent,
                                const ArenaList<ValueInfo*>& value_info, size_t first_value_info,
                                bool with_initializers) {
  bool opened = false;
  auto open = [&]() {
    w_.raw(opened ? "," : "\n");
    if (!opened) {
      w_.spaces(indent + unit_);
      w_.raw('<');
    }
    opened = true;
    w_.raw('\n');
  };
  if (with_initializers) {
    for (size_t i = 0; i < graph.initializers.size(); ++i) {
      const Tensor& init = *graph.initializers[i];
      LossLog::Scope scope(log_, "initializer", i, init.nameOrEmpty());
      if (literalElementType(init) == nullptr) {
        log_.lose("data_type", fmt::format("{} is no element type the text can name",
                                           init.data_type.value_or(0)));
        continue;
      }
      open();
      beginStatement(indent + 2 * unit_);
      tensor(init, TensorPlace::kInitializer, indent + 2 * unit_);
      endStatement();
    }
  }
  for (size_t i = first_value_info; i < value_info.size(); ++i) {
    const ValueInfo& info = *value_info[i];
    LossLog::Scope scope(log_, "value_info", i, infoName(info));
    open();
    beginStatement(indent + 2 * unit_);
    valueInfo(info, true);
    loseValueInfoExtras(info);
    endStatement();
  }
  if (opened) {
    w_.raw('\n');
    w_.spaces(indent + unit_);
    w_.raw(">\n");
    w_.spaces(indent);
    w_.raw('{');
  } else {
    w_.raw(" {");
  }
}

void Printer::nodeList(const Graph& graph, int indent) {
  w_.raw('\n');
  size_t index = 0;
  for (const Node* n = graph.firstNode(); n != nullptr; n = n->next(), ++index) {
    LossLog::Scope scope(log_, "node", index, n->nameOrEmpty());
    node(*n, indent + unit_);
  }
  w_.spaces(indent);
  w_.raw('}');
}

// Syntax.md's value-info is `type quotable-id`, but onnx's parser takes the type as optional
// (a name alone leaves the ValueInfoProto without a type), which is how an untyped one prints.
void Printer::valueInfo(const ValueInfo& info, bool with_type) {
  if (with_type && info.type != nullptr) {
    LossLog::Scope scope(log_, "type");
    size_t mark = w_.size();
    if (type(*info.type)) {
      w_.raw(' ');
    } else {
      // The type is optional here: without it the name stands alone. type() said what it
      // could not spell; an empty type, lost whole, is already said once.
      w_.buffer().resize(mark);
      if (info.type->kind != Type::Kind::kNone) log_.lose("", "a type the text cannot spell");
    }
  }
  w_.name(infoName(info));
}

void Printer::loseValueInfoExtras(const ValueInfo& info) {
  if (!info.doc_string.value_or("").empty()) log_.lose("doc_string", *info.doc_string);
  if (!info.metadata_props.empty()) {
    log_.lose("metadata_props", countOf(info.metadata_props.size(), "entry", "entries"));
  }
  log_.loseUnknown(info.unknown);
}

void Printer::valueInfoList(const ArenaList<ValueInfo*>& list, std::string_view field) {
  w_.raw('(');
  for (size_t i = 0; i < list.size(); ++i) {
    const ValueInfo& info = *list[i];
    LossLog::Scope scope(log_, field, i, infoName(info));
    if (i > 0) w_.raw(", ");
    valueInfo(info, true);
    loseValueInfoExtras(info);
  }
  w_.raw(')');
}

// ---- functions --------------------------------------------------------------------------

void Printer::function(const Function& f) {
  beginStatement(0);
  bool any = false;
  auto key = [&](const char* name) {
    w_.raw(any ? ",\n" : "<\n");
    any = true;
    w_.spaces(unit_);
    w_.raw(name);
    w_.raw(": ");
  };
  if (f.domain) {
    key("domain");
    w_.quoted(*f.domain);
  }
  if (f.overload) {
    key("overload");
    w_.quoted(*f.overload);
  }
  if (!f.opset_import.empty()) {
    key("opset_import");
    opsetList(f.opset_import);
  }
  if (f.doc_string) {
    key("doc_string");
    w_.quoted(*f.doc_string);
  }
  if (any) w_.raw("\n>\n");
  if (!f.metadata_props.empty()) {
    // The function header has no metadata_props key (the model header has one).
    log_.lose("metadata_props", countOf(f.metadata_props.size(), "entry", "entries"));
  }
  log_.loseUnknown(f.unknown);

  w_.name(f.nameOrEmpty());
  bool opened = false;
  for (size_t i = 0; i < f.attribute.size(); ++i) {
    w_.raw(opened ? ", " : " <");
    opened = true;
    w_.name(f.attribute[i]);
  }
  attributeList(f.attribute_proto, 0, AttributePlace::kFunctionDefault, opened);
  if (opened) w_.raw('>');

  // A typed input or output adds a value_info entry, in the order inputs then outputs, so
  // the entries that lead value_info in that order print in place and the rest after.
  static const Graph kNoBody;  // a function made in memory may have none yet
  const Graph& body = f.body != nullptr ? *f.body : kNoBody;
  const ArenaList<ValueInfo*>& value_info = body.value_info;
  size_t next_info = 0;
  auto signatureName = [&](std::string_view name) {
    if (next_info < value_info.size() && infoName(*value_info[next_info]) == name &&
        value_info[next_info]->type != nullptr && canSpell(*value_info[next_info]->type)) {
      const ValueInfo& info = *value_info[next_info];
      LossLog::Scope scope(log_, "value_info", next_info, name);
      {
        LossLog::Scope type_scope(log_, "type");
        type(*info.type);
      }
      w_.raw(' ');
      loseValueInfoExtras(info);
      ++next_info;
    }
    w_.name(name);
  };
  w_.raw(" (");
  for (size_t i = 0; i < f.inputs.size(); ++i) {
    if (i > 0) w_.raw(", ");
    signatureName(valueName(f.inputs[i]));
  }
  w_.raw(") => (");
  for (size_t i = 0; i < f.outputs.size(); ++i) {
    if (i > 0) w_.raw(", ");
    signatureName(valueName(f.outputs[i]->value()));
  }
  w_.raw(')');
  endStatement();
  graphDeclarations(body, 0, value_info, next_info, false);
  nodeList(body, 0);
}

// ---- nodes and attributes ---------------------------------------------------------------

void Printer::plainWord(std::string_view text, std::string_view field, const char* what) {
  if (isIdentifier(text)) {
    w_.raw(text);
    return;
  }
  std::string stand_in = identifierStandIn(text);
  log_.lose(field,
            fmt::format("not an identifier, which {} must be; written as {}", what, stand_in));
  w_.raw(stand_in);
}

void Printer::node(const Node& n, int indent) {
  beginStatement(indent);
  if (n.name) {
    w_.raw('[');
    w_.name(*n.name);
    w_.raw("] ");
  }
  for (size_t i = 0; i < n.outputCount(); ++i) {
    if (i > 0) w_.raw(", ");
    w_.name(valueName(n.output(i)));
  }
  w_.raw(n.outputs().empty() ? "= " : " = ");

  std::string_view domain = n.domainOrDefault();
  std::string_view op_type = n.opType();
  if (!domain.empty()) {
    if (isDottedIdentifier(domain)) {
      w_.raw(domain);
    } else {
      std::string stand_in = identifierStandIn(domain);
      log_.lose("domain", fmt::format("not a dotted run of identifiers, which a node's domain "
                                      "must be; written as {}",
                                      stand_in));
      w_.raw(stand_in);
    }
    w_.raw('.');
  }
  if (!op_type.empty() || !domain.empty()) {
    plainWord(op_type, "op_type", "an operator type");
  }
  if (!n.rare().overload.value_or("").empty()) {
    w_.raw(':');
    plainWord(*n.rare().overload, "overload", "an overload");
  }

  // Attributes go after the inputs when one of them is a graph, so that the inputs stay
  // next to the operator; the parser takes them on either side.
  bool graphs_after = false;
  for (const Attribute* a : n.attributes) {
    if (a->g != nullptr) graphs_after = true;
  }
  bool opened = false;
  if (!graphs_after) {
    attributeList(n.attributes, indent, AttributePlace::kNode, opened);
    if (opened) w_.raw("> ");
  }
  w_.raw(graphs_after ? " (" : "(");
  for (size_t i = 0; i < n.inputCount(); ++i) {
    if (i > 0) w_.raw(", ");
    w_.name(valueName(n.input(i)));
  }
  w_.raw(')');
  if (graphs_after) {
    attributeList(n.attributes, indent, AttributePlace::kNode, opened);
    if (opened) w_.raw('>');
  }

  const NodeRareFields& rare = n.rare();
  if (!rare.doc_string.value_or("").empty()) log_.lose("doc_string", *rare.doc_string);
  if (!rare.metadata_props.empty()) {
    log_.lose("metadata_props", countOf(rare.metadata_props.size(), "entry", "entries"));
  }
  if (!rare.device_configurations.empty()) {
    log_.lose("device_configurations",
              countOf(rare.device_configurations.size(), "configuration", "configurations"));
  }
  log_.loseUnknown(rare.unknown);
  w_.raw('\n');
  endStatement();
}

void Printer::attributeList(const ArenaList<Attribute*>& attributes, int indent,
                            AttributePlace place, bool& opened) {
  for (size_t i = 0; i < attributes.size(); ++i) {
    const Attribute& a = *attributes[i];
    LossLog::Scope scope(log_, place == AttributePlace::kNode ? "attribute" : "attribute_proto", i,
                         a.nameOrEmpty());
    size_t mark = w_.size();
    w_.raw(opened ? ", " : " <");
    if (attribute(a, indent, place)) {
      opened = true;
    } else {
      w_.buffer().resize(mark);
    }
  }
}

bool Printer::attribute(const Attribute& a, int indent, AttributePlace place) {
  if (place == AttributePlace::kNode) {
    plainWord(a.nameOrEmpty(), "name", "the name of a node's attribute");
  } else {
    w_.name(a.nameOrEmpty());
  }
  AttributeFields fields(a);
  AttributeKind kind = a.kind();

  if (a.rare().ref_attr_name) {
    // A reference to an attribute of the enclosing function: `name: kind = @ref`.
    if (kind != AttributeKind::kUndefined) {
      w_.raw(": ");
      w_.raw(attributeKindName(kind));
    }
    w_.raw(" = @");
    w_.name(*a.rare().ref_attr_name);
    for (size_t k = 0; k < AttributeFields::kCount; ++k) {
      if (fields.set[k])
        log_.lose(attributeValueField(AttributeFields::kKind[k]), "a value beside ref_attr_name");
    }
  } else {
    if (kind == AttributeKind::kUndefined) {
      kind = fields.guess();
      if (kind == AttributeKind::kUndefined) {
        log_.lose("", "an attribute with neither a type nor a value");
        return false;
      }
      log_.lose("type", fmt::format("absent; the text states {}", attributeKindName(kind)));
    }
    bool written = false;
    attributeValue(a, kind, indent, written);
    if (!written) return false;
    for (size_t k = 0; k < AttributeFields::kCount; ++k) {
      if (fields.set[k] && AttributeFields::kKind[k] != kind) {
        log_.lose(attributeValueField(AttributeFields::kKind[k]),
                  fmt::format("set beside the {} value", attributeKindName(kind)));
      }
    }
  }
  if (!a.rare().doc_string.value_or("").empty()) log_.lose("doc_string", *a.rare().doc_string);
  log_.loseUnknown(a.rare().unknown);
  return true;
}

void Printer::attributeValue(const Attribute& a, AttributeKind kind, int indent, bool& written) {
  const AttributeRareFields& lists = a.rare();
  // The type is always written: an attribute float such as 2 would read back as an int,
  // and an empty list needs it.
  w_.raw(": ");
  w_.raw(attributeKindName(kind));
  w_.raw(" = ");
  written = true;
  switch (kind) {
    case AttributeKind::kFloat: {
      float value = a.f.value_or(0.0f);
      w_.floatLiteral(value);
      if (isNanWithPayload(value)) {
        log_.lose("f", "a NaN with a payload reads back as the default NaN");
      }
      return;
    }
    case AttributeKind::kInt: w_.integer(a.i.value_or(0)); return;
    case AttributeKind::kString: w_.quoted(a.s.value_or("")); return;
    case AttributeKind::kTensor: {
      LossLog::Scope scope(log_, "t");
      if (a.t == nullptr) {
        log_.lose("", "a tensor attribute with no tensor");
        written = false;
      } else if (literalElementType(*a.t) == nullptr) {
        log_.lose("data_type", fmt::format("{} is no element type the text can name",
                                           a.t->data_type.value_or(0)));
        written = false;
      } else {
        tensor(*a.t, TensorPlace::kAttribute, indent);
      }
      return;
    }
    case AttributeKind::kGraph: {
      LossLog::Scope scope(log_, "g");
      if (a.g == nullptr) {
        log_.lose("", "a graph attribute with no graph");
        written = false;
      } else {
        graph(*a.g, indent, true);
      }
      return;
    }
    case AttributeKind::kTypeProto: {
      LossLog::Scope scope(log_, "tp");
      const Type* held = a.rare().tp;
      if (held == nullptr || !type(*held)) {
        // As for a value info's type: an empty type's loss is said once, by type().
        if (held == nullptr || held->kind != Type::Kind::kNone) {
          log_.lose("", "a type the text cannot spell");
        }
        written = false;
      }
      return;
    }
    case AttributeKind::kSparseTensor:
      log_.lose("sparse_tensor", "sparse tensors have no text form");
      written = false;
      return;
    case AttributeKind::kFloats: {
      w_.raw('[');
      bool payload = false;
      for (size_t i = 0; i < a.floats.size(); ++i) {
        if (i > 0) w_.raw(", ");
        float value = a.floats[i];
        w_.floatLiteral(value);
        if (isNanWithPayload(value)) {
          payload = true;
        }
      }
      w_.raw(']');
      if (payload) log_.lose("floats", "a NaN with a payload reads back as the default NaN");
      return;
    }
    case AttributeKind::kInts:
      w_.raw('[');
      for (size_t i = 0; i < a.ints.size(); ++i) {
        if (i > 0) w_.raw(", ");
        w_.integer(a.ints[i]);
      }
      w_.raw(']');
      return;
    case AttributeKind::kStrings:
      w_.raw('[');
      for (size_t i = 0; i < lists.strings.size(); ++i) {
        if (i > 0) w_.raw(", ");
        w_.quoted(lists.strings[i]);
      }
      w_.raw(']');
      return;
    case AttributeKind::kTensors:
    case AttributeKind::kGraphs:
    case AttributeKind::kSparseTensors:
    case AttributeKind::kTypeProtos: {
      // onnx's parser reads such a list but keeps none of its elements (it keeps only ints,
      // floats and strings from a list), so only the empty list can be written.
      size_t count = 0;
      const char* field = "tensors";
      switch (kind) {
        case AttributeKind::kTensors: count = lists.tensors.size(); break;
        case AttributeKind::kGraphs:
          count = lists.graphs.size();
          field = "graphs";
          break;
        case AttributeKind::kSparseTensors:
          count = lists.sparse_tensors.size();
          field = "sparse_tensors";
          break;
        default:
          count = lists.type_protos.size();
          field = "type_protos";
          break;
      }
      w_.raw("[]");
      if (count > 0) {
        log_.lose(field, fmt::format("{} element(s): the text can only write an empty {} list",
                                     count, attributeKindName(kind)));
      }
      return;
    }
    case AttributeKind::kUndefined: break;
  }
  written = false;
}

// ---- types and tensors ------------------------------------------------------------------

bool Printer::elementType(std::optional<int32_t> code, std::string_view field) {
  const ElementTypeInfo* info = elementTypeInfo(code.value_or(0));
  if (info == nullptr) {
    log_.lose(field, code ? fmt::format("{} is no element type the text can name", *code)
                          : std::string("absent"));
    return false;
  }
  w_.raw(info->shortName);
  return true;
}

void Printer::shape(const TensorShape* shape) {
  // `float` is a scalar and `float[]` a tensor of unknown rank (no shape at all).
  if (shape == nullptr) {
    w_.raw("[]");
    return;
  }
  LossLog::Scope scope(log_, "shape");
  log_.loseUnknown(shape->unknown);
  if (shape->dims.empty()) return;
  w_.raw('[');
  for (size_t i = 0; i < shape->dims.size(); ++i) {
    const Dimension& dim = shape->dims[i];
    if (i > 0) w_.raw(',');
    if (dim.dim_value) {
      w_.integer(*dim.dim_value);
    } else if (dim.dim_param) {
      w_.name(*dim.dim_param);
    } else {
      w_.raw('?');
    }
    if (!dim.denotation.value_or("").empty() || !dim.unknown.empty()) {
      LossLog::Scope dim_scope(log_, "dim", i);
      if (!dim.denotation.value_or("").empty()) log_.lose("denotation", *dim.denotation);
      log_.loseUnknown(dim.unknown);
    }
  }
  w_.raw(']');
}

bool Printer::type(const Type& t) {
  if (!t.denotation.value_or("").empty()) log_.lose("denotation", *t.denotation);
  log_.loseUnknown(t.unknown);
  switch (t.kind) {
    case Type::Kind::kTensor: {
      LossLog::Scope scope(log_, "tensor_type");
      log_.loseUnknown(t.member_unknown);
      if (!elementType(t.elem_type, "elem_type")) return false;
      shape(t.shape);
      return true;
    }
    case Type::Kind::kSparseTensor: {
      LossLog::Scope scope(log_, "sparse_tensor_type");
      log_.loseUnknown(t.member_unknown);
      w_.raw("sparse_tensor(");
      if (!elementType(t.elem_type, "elem_type")) return false;
      shape(t.shape);
      w_.raw(')');
      return true;
    }
    case Type::Kind::kSequence:
    case Type::Kind::kOptional: {
      const bool sequence = t.kind == Type::Kind::kSequence;
      LossLog::Scope scope(log_, sequence ? "sequence_type" : "optional_type");
      log_.loseUnknown(t.member_unknown);
      w_.raw(sequence ? "seq(" : "optional(");
      LossLog::Scope elem_scope(log_, "elem_type");
      if (t.elem == nullptr) {
        log_.lose("", "absent");
        return false;
      }
      if (!type(*t.elem)) return false;
      w_.raw(')');
      return true;
    }
    case Type::Kind::kMap: {
      LossLog::Scope scope(log_, "map_type");
      log_.loseUnknown(t.member_unknown);
      w_.raw("map(");
      if (!elementType(t.key_type, "key_type")) return false;
      w_.raw(", ");
      LossLog::Scope value_scope(log_, "value_type");
      if (t.elem == nullptr) {
        log_.lose("", "absent");
        return false;
      }
      if (!type(*t.elem)) return false;
      w_.raw(')');
      return true;
    }
    case Type::Kind::kOpaque: {
      // The parser reads opaque(), opaque(name) with a dotted name and no domain, and
      // opaque(domain, name) with a dotted domain and a plain name; an empty domain and an
      // absent one mean the same.
      LossLog::Scope scope(log_, "opaque_type");
      log_.loseUnknown(t.member_unknown);
      std::string_view domain = t.opaque_domain.value_or("");
      std::string_view name = t.opaque_name.value_or("");
      w_.raw("opaque(");
      if (!domain.empty()) {
        if (isDottedIdentifier(domain)) {
          w_.raw(domain);
        } else {
          std::string stand_in = identifierStandIn(domain);
          log_.lose("domain",
                    fmt::format("not a dotted run of identifiers; written as {}", stand_in));
          w_.raw(stand_in);
        }
        w_.raw(", ");
        if (name.empty()) {
          log_.lose("name", "an opaque type with a domain needs a name in the text; written as _");
          w_.raw('_');
        } else {
          plainWord(name, "name", "the name of an opaque type with a domain");
        }
      } else if (!name.empty()) {
        if (isDottedIdentifier(name)) {
          w_.raw(name);
        } else {
          std::string stand_in = identifierStandIn(name);
          log_.lose("name",
                    fmt::format("not a dotted run of identifiers; written as {}", stand_in));
          w_.raw(stand_in);
        }
      }
      w_.raw(')');
      return true;
    }
    case Type::Kind::kNone: log_.lose("", "a type with no member set"); return false;
  }
  return false;
}

bool Printer::tensor(const Tensor& tensor, TensorPlace place, int indent) {
  if (literalElementType(tensor) == nullptr) return false;
  TensorFormat format;
  format.place = place;
  format.write_data = write_data_;
  format.elide_over = elide_over_;
  format.elided_shown = elided_shown_;
  format.indent = indent;
  format.indent_unit = unit_;
  writeTensorLiteral(w_, log_, tensor, format);
  return true;
}

}  // namespace
}  // namespace text

// ---- public API -------------------------------------------------------------------------

void printModel(const Model& model, std::string& out, const PrintOptions& options,
                std::vector<TextLoss>* losses) {
  text::Printer printer(out, options, losses != nullptr, true);
  printer.model(model);
  if (losses != nullptr) *losses = printer.log().take();
}

std::string printModel(const Model& model, const PrintOptions& options) {
  std::string out;
  printModel(model, out, options, nullptr);
  return out;
}

std::vector<TextLoss> textLosses(const Model& model) {
  std::string scratch;
  PrintOptions options;
  options.loss_comments = false;
  text::Printer printer(scratch, options, true, false);
  printer.model(model);
  return printer.log().take();
}

std::string printGraph(const Graph& graph, const PrintOptions& options) {
  std::string out;
  text::Printer printer(out, options, false, true);
  printer.graph(graph, 0, false);
  return out;
}

std::string printFunction(const Function& function, const PrintOptions& options) {
  std::string out;
  text::Printer printer(out, options, false, true);
  printer.function(function);
  return out;
}

std::string printNode(const Node& node, const PrintOptions& options) {
  std::string out;
  text::Printer printer(out, options, false, true);
  printer.node(node, 0);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string printAttribute(const Attribute& attribute, const PrintOptions& options) {
  std::string out;
  PrintOptions inline_options = options;
  inline_options.loss_comments = false;
  text::Printer printer(out, inline_options, false, true);
  if (!printer.attribute(attribute, 0, text::AttributePlace::kNode)) {
    out = std::string(attribute.nameOrEmpty()) + " = ?";
  }
  return out;
}

std::string printType(const Type& type) {
  std::string out;
  PrintOptions options;
  options.loss_comments = false;
  text::Printer printer(out, options, false, true);
  if (!printer.type(type)) out = "?";
  return out;
}

std::string printTensor(const Tensor& tensor, const PrintOptions& options) {
  std::string out;
  PrintOptions inline_options = options;
  inline_options.loss_comments = false;
  text::Printer printer(out, inline_options, false, true);
  if (!printer.tensor(tensor, text::TensorPlace::kAttribute, 0)) out = "?";
  return out;
}

}  // namespace onyx
