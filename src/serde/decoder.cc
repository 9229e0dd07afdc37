#include "serde/decoder.h"

#include <cstring>

#include "onyx/core/element_type.h"
#include "onyx/core/utf8.h"

namespace onyx::serde {

using wire::Reader;
using wire::WireType;

namespace {

const char* wireTypeName(WireType type) {
  switch (type) {
    case WireType::kVarint:
      return "varint";
    case WireType::kFixed64:
      return "fixed64";
    case WireType::kLengthDelimited:
      return "length-delimited";
    case WireType::kStartGroup:
      return "start-group";
    case WireType::kEndGroup:
      return "end-group";
    case WireType::kFixed32:
      return "fixed32";
  }
  return "invalid";
}

bool mayShare(const Value& value, Decoder::Role role) {
  using Role = Decoder::Role;
  if (value.isUndefined()) return true;
  // A graph input may also be an initializer (its default); nothing else shares a name.
  bool only_initializer = value.producer == nullptr && value.input == nullptr &&
                          !value.function_input &&
                          (value.initializer != nullptr || value.sparse_initializer != nullptr);
  bool only_input = value.producer == nullptr && value.input != nullptr &&
                    value.initializer == nullptr && value.sparse_initializer == nullptr;
  switch (role) {
    case Role::kGraphInput:
      return only_initializer;
    case Role::kInitializer:
    case Role::kSparseInitializer:
      return only_input;
    default:
      return false;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Errors

bool Decoder::fail(ErrorCode code, std::string message, uint64_t offset) {
  if (status_.isOk()) {
    status_ = Status(code, std::move(message));
    status_.atOffset(offset);
  }
  return false;
}

bool Decoder::wireError(const Reader& reader) {
  return fail(reader.errorCode(), reader.error(), reader.errorOffset());
}

bool Decoder::fieldWireError(const Reader& reader, const char* field) {
  wireError(reader);
  return within(field);
}

bool Decoder::failField(const char* field, ErrorCode code, std::string message, uint64_t offset) {
  fail(code, std::move(message), offset);
  return within(field);
}

bool Decoder::within(std::string_view segment) {
  status_.within(segment);
  return false;
}

bool Decoder::within(std::string_view list, size_t index, OptString name) {
  std::string segment(list);
  segment += '[';
  segment += std::to_string(index);
  segment += ']';
  if (name.has_value() && !name->empty()) {
    segment += '(';
    segment += *name;
    segment += ')';
  }
  return within(segment);
}

bool Decoder::expectType(Reader& r, WireType actual, WireType expected, const char* field) {
  if (actual == expected) return true;
  return fail(ErrorCode::kMalformed,
              std::string("wire type ") + wireTypeName(actual) + " where " + field + " needs " +
                  wireTypeName(expected),
              r.offset());
}

bool Decoder::enter(const Reader& r) {
  if (++depth_ > options_.max_depth) {
    --depth_;
    return fail(ErrorCode::kLimitExceeded,
                "messages nest more than " + std::to_string(options_.max_depth) + " deep",
                r.offset());
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Scalar fields

bool Decoder::readString(Reader& r, WireType wt, OptString& out, const char* field, bool is_name) {
  if (!expectType(r, wt, WireType::kLengthDelimited, field)) return within(field);
  std::string_view text;
  uint64_t at = r.offset();
  if (!r.readBytes(text)) {
    return fieldWireError(r, field);
  }
  if (is_name && options_.validate_utf8 && !isValidUtf8(text)) {
    return failField(field, ErrorCode::kMalformed, "not valid UTF-8", at);
  }
  out = text;
  return true;
}

bool Decoder::readBytesList(Reader& r, WireType wt, ArenaList<std::string_view>& out,
                            const char* field, bool is_name) {
  OptString text;
  if (!readString(r, wt, text, field, is_name)) return false;
  out.push_back(arena_, *text);
  return true;
}

bool Decoder::readInt64(Reader& r, WireType wt, std::optional<int64_t>& out, const char* field) {
  if (!expectType(r, wt, WireType::kVarint, field)) return within(field);
  uint64_t raw;
  if (!r.readVarint(raw)) return fieldWireError(r, field);
  out = static_cast<int64_t>(raw);
  return true;
}

bool Decoder::readInt32(Reader& r, WireType wt, std::optional<int32_t>& out, const char* field) {
  if (!expectType(r, wt, WireType::kVarint, field)) return within(field);
  uint64_t raw;
  if (!r.readVarint(raw)) return fieldWireError(r, field);
  out = static_cast<int32_t>(static_cast<uint32_t>(raw));  // protobuf keeps the low 32 bits
  return true;
}

bool Decoder::readFloat(Reader& r, WireType wt, std::optional<float>& out, const char* field) {
  if (!expectType(r, wt, WireType::kFixed32, field)) return within(field);
  uint32_t bits;
  if (!r.readFixed32(bits)) return fieldWireError(r, field);
  float value;
  std::memcpy(&value, &bits, 4);
  out = value;
  return true;
}

bool Decoder::readRepeatedInt64(Reader& r, WireType wt, Repeated<int64_t>& out, const char* field) {
  if (wt == WireType::kVarint) {
    uint64_t raw;
    if (!r.readVarint(raw)) return fieldWireError(r, field);
    if (out.values.empty()) out.packed = false;
    out.values.push_back(arena_, static_cast<int64_t>(raw));
    return true;
  }
  if (!expectType(r, wt, WireType::kLengthDelimited, field)) return within(field);
  std::string_view payload;
  if (!r.readBytes(payload)) return fieldWireError(r, field);
  Reader inner = reader(payload);
  if (out.values.empty()) out.packed = true;
  while (!inner.atEnd()) {
    uint64_t raw;
    if (!inner.readVarint(raw)) return fieldWireError(inner, field);
    out.values.push_back(arena_, static_cast<int64_t>(raw));
  }
  return true;
}

bool Decoder::readRepeatedFloat(Reader& r, WireType wt, Repeated<float>& out, const char* field) {
  if (wt == WireType::kFixed32) {
    std::optional<float> value;
    if (!readFloat(r, wt, value, field)) return false;
    if (out.values.empty()) out.packed = false;
    out.values.push_back(arena_, *value);
    return true;
  }
  if (!expectType(r, wt, WireType::kLengthDelimited, field)) return within(field);
  std::string_view payload;
  uint64_t at = r.offset();
  if (!r.readBytes(payload)) return fieldWireError(r, field);
  if (payload.size() % 4 != 0) {
    return failField(field, ErrorCode::kMalformed,
                     std::string("packed ") + field + " is not a whole number of floats", at);
  }
  if (out.values.empty()) out.packed = true;
  size_t count = payload.size() / 4;
  out.values.reserve(arena_, out.values.size() + count);
  for (size_t i = 0; i < count; ++i) {
    float value;
    std::memcpy(&value, payload.data() + 4 * i, 4);
    out.values.push_back(arena_, value);
  }
  return true;
}

bool Decoder::readPacked(Reader& r, WireType wt, PackedData& out, PackedKind kind,
                         const char* field) {
  WireType element = kind == PackedKind::kVarint    ? WireType::kVarint
                     : kind == PackedKind::kFixed32 ? WireType::kFixed32
                                                    : WireType::kFixed64;
  std::string_view added;
  uint64_t added_count = 0;
  bool packed;
  uint64_t at = r.offset();
  if (wt == WireType::kLengthDelimited) {
    packed = true;
    if (!r.readBytes(added)) return fieldWireError(r, field);
    bool whole = true;
    if (kind == PackedKind::kVarint) {
      whole = wire::countPackedVarints(added, added_count);
    } else {
      size_t width = kind == PackedKind::kFixed32 ? 4 : 8;
      whole = added.size() % width == 0;
      added_count = added.size() / width;
    }
    if (!whole) {
      return failField(field, ErrorCode::kMalformed,
                       std::string("packed ") + field + " does not hold whole elements", at);
    }
  } else if (wt == element) {
    packed = false;
    const char* start = r.position();
    if (!r.skipValue(0, wt, 0)) return fieldWireError(r, field);
    added = std::string_view(start, static_cast<size_t>(r.position() - start));
    added_count = 1;
  } else {
    expectType(r, wt, WireType::kLengthDelimited, field);
    return within(field);
  }

  if (!out.present) {
    out.present = true;
    out.packed = packed;
    out.payload = added;
    out.count = added_count;
    return true;
  }
  // More than one occurrence: the payloads concatenate. Grow an arena copy geometrically so
  // that a field sent one element at a time stays linear.
  size_t needed = out.payload.size() + added.size();
  char* data = const_cast<char*>(out.payload.data());
  if (out.arena_capacity < needed) {
    size_t capacity = needed < 64 ? 64 : needed * 2;
    char* bigger = arena_.allocateArray<char>(capacity);
    std::memcpy(bigger, out.payload.data(), out.payload.size());
    data = bigger;
    out.arena_capacity = capacity;
  }
  std::memcpy(data + out.payload.size(), added.data(), added.size());
  out.payload = std::string_view(data, needed);
  out.count += added_count;
  return true;
}

bool Decoder::keepUnknown(Reader& r, uint32_t field, WireType wt, const char* key_start,
                          UnknownFields& unknown) {
  if (wt == WireType::kEndGroup) {
    return fail(ErrorCode::kMalformed, "end of group " + std::to_string(field) + " without a start",
                r.offset());
  }
  if (!r.skipValue(field, wt, options_.max_depth - depth_)) return wireError(r);
  unknown.push_back(
      arena_, UnknownField{field, std::string_view(key_start,
                                                   static_cast<size_t>(r.position() - key_start))});
  return true;
}

// ---------------------------------------------------------------------------------------
// Values and scopes

Graph* Decoder::newGraph(Graph* parent, Node* owner) {
  Graph* graph = arena_.make<Graph>();
  graph->parent = parent;
  graph->owner = owner;
  if (parent != nullptr) parent->subgraphs.push_back(arena_, graph);
  return graph;
}

Value* Decoder::valueForRead(Graph& graph, std::string_view name) {
  if (Value* found = graph.names.find(name)) return found;
  Value* value = arena_.make<Value>();
  value->name = name;
  value->graph = &graph;
  graph.names.put(arena_, name, value);
  graph.values.push_back(arena_, value);
  return value;
}

Value* Decoder::defineAs(Graph& graph, std::string_view name, Role role) {
  Value* found = graph.names.find(name);
  if (found != nullptr && mayShare(*found, role)) return found;
  Value* value = arena_.make<Value>();
  value->name = name;
  value->graph = &graph;
  // A second definition of a name (invalid SSA) gets its own value outside the name table,
  // so that reads keep binding to the first and the file is still written back as it was.
  if (found == nullptr) graph.names.put(arena_, name, value);
  graph.values.push_back(arena_, value);
  return value;
}

void Decoder::linkScopes(Graph& root) {
  // First merge, innermost graphs first: a subgraph's read of a name it does not define
  // becomes a use of the value the enclosing scopes give that name.
  struct Merge {
    Arena& arena;
    void run(Graph& graph) {
      for (Graph* sub : graph.subgraphs) run(*sub);
      if (graph.parent == nullptr) return;
      size_t kept = 0;
      for (size_t i = 0; i < graph.values.size(); ++i) {
        Value* value = graph.values[i];
        if (value->isUndefined()) {
          if (Value* outer = graph.parent->lookup(value->name)) {
            value->replaceAllUsesWith(outer);
            value->graph = nullptr;
            // The name now means the outer value here too (it is captured, not owned).
            graph.names.put(arena, outer->name, outer);
            continue;
          }
        }
        graph.values[kept++] = value;
      }
      graph.values.truncate(kept);
    }
  };
  Merge{arena_}.run(root);
  // Then bind value_info entries, once every name has its final value.
  struct Bind {
    static void run(Graph& graph) {
      for (ValueInfo* info : graph.value_info) {
        if (info->name.has_value()) info->value = graph.lookup(*info->name);
      }
      for (Graph* sub : graph.subgraphs) run(*sub);
    }
  };
  Bind::run(root);
}

// ---------------------------------------------------------------------------------------
// Messages

bool Decoder::decodeEntry(std::string_view bytes, StringStringEntry& entry) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok;
    switch (field) {
      case 1:
        ok = readString(r, wt, entry.key, "key", false);
        break;
      case 2:
        ok = readString(r, wt, entry.value, "value", false);
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, entry.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeEntries(Reader& r, WireType wt, ArenaList<StringStringEntry>& out,
                            const char* field) {
  if (!expectType(r, wt, WireType::kLengthDelimited, field)) return false;
  std::string_view bytes;
  if (!r.readBytes(bytes)) {
    wireError(r);
    return within(field, out.size());
  }
  StringStringEntry& entry = out.emplace_back(arena_);
  if (!enter(r)) return false;
  bool ok = decodeEntry(bytes, entry);
  leave();
  if (!ok) {
    OptString key = entry.key;
    return within(field, out.size() - 1, key);
  }
  return true;
}

bool Decoder::decodeOpsetId(std::string_view bytes, OperatorSetId& opset) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok;
    switch (field) {
      case 1:
        ok = readString(r, wt, opset.domain, "domain", true);
        break;
      case 2:
        ok = readInt64(r, wt, opset.version, "version");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, opset.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

// Reads a length-delimited sub-message field into `target` with `decode`, counting depth.
// Sets `ok`; the caller adds the field's path segment when it is false.
#define ONYX_SUBMESSAGE(decode, target, name)                        \
  do {                                                               \
    ok = false;                                                      \
    if (!expectType(r, wt, WireType::kLengthDelimited, name)) break; \
    std::string_view sub;                                            \
    if (!r.readBytes(sub)) {                                         \
      wireError(r);                                                  \
      break;                                                         \
    }                                                                \
    if (!enter(r)) break;                                            \
    ok = decode(sub, target);                                        \
    leave();                                                         \
  } while (0)

bool Decoder::decodeModel(std::string_view bytes, Model& model) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        ok = readInt64(r, wt, model.ir_version, "ir_version");
        break;
      case 2:
        ok = readString(r, wt, model.producer_name, "producer_name", false);
        break;
      case 3:
        ok = readString(r, wt, model.producer_version, "producer_version", false);
        break;
      case 4:
        ok = readString(r, wt, model.domain, "domain", false);
        break;
      case 5:
        ok = readInt64(r, wt, model.model_version, "model_version");
        break;
      case 6:
        ok = readString(r, wt, model.doc_string, "doc_string", false);
        break;
      case 7: {
        if (model.graph == nullptr) model.graph = newGraph(nullptr, nullptr);
        ONYX_SUBMESSAGE(decodeGraph, *model.graph, "graph");
        if (!ok) return within("graph");
        break;
      }
      case 8: {
        OperatorSetId& opset = model.opset_import.emplace_back(arena_);
        ONYX_SUBMESSAGE(decodeOpsetId, opset, "opset_import");
        if (!ok) return within("opset_import", model.opset_import.size() - 1);
        break;
      }
      case 14:
        ok = decodeEntries(r, wt, model.metadata_props, "metadata_props");
        break;
      case 20: {
        TrainingInfo* info = arena_.make<TrainingInfo>();
        model.training_info.push_back(arena_, info);
        ONYX_SUBMESSAGE(decodeTrainingInfo, *info, "training_info");
        if (!ok) return within("training_info", model.training_info.size() - 1);
        break;
      }
      case 25: {
        Function* function = arena_.make<Function>();
        model.functions.push_back(arena_, function);
        ONYX_SUBMESSAGE(decodeFunction, *function, "functions");
        if (!ok) return within("functions", model.functions.size() - 1, function->name);
        break;
      }
      case 26: {
        DeviceConfiguration* config = arena_.make<DeviceConfiguration>();
        model.configuration.push_back(arena_, config);
        ONYX_SUBMESSAGE(decodeDeviceConfiguration, *config, "configuration");
        if (!ok) return within("configuration", model.configuration.size() - 1, config->name);
        break;
      }
      default:
        ok = keepUnknown(r, field, wt, key_start, model.unknown);
    }
    if (!ok) return false;
  }
  if (model.graph != nullptr) linkScopes(*model.graph);
  for (Function* function : model.functions) linkScopes(*function->body);
  for (TrainingInfo* info : model.training_info) {
    if (info->initialization != nullptr) linkScopes(*info->initialization);
    if (info->algorithm != nullptr) linkScopes(*info->algorithm);
  }
  return true;
}

bool Decoder::decodeTrainingInfo(std::string_view bytes, TrainingInfo& info) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        if (info.initialization == nullptr) info.initialization = newGraph(nullptr, nullptr);
        ONYX_SUBMESSAGE(decodeGraph, *info.initialization, "initialization");
        if (!ok) return within("initialization");
        break;
      case 2:
        if (info.algorithm == nullptr) info.algorithm = newGraph(nullptr, nullptr);
        ONYX_SUBMESSAGE(decodeGraph, *info.algorithm, "algorithm");
        if (!ok) return within("algorithm");
        break;
      case 3:
        ok = decodeEntries(r, wt, info.initialization_binding, "initialization_binding");
        break;
      case 4:
        ok = decodeEntries(r, wt, info.update_binding, "update_binding");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, info.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeGraph(std::string_view bytes, Graph& graph) {
  Graph* saved_graph = current_graph_;
  current_graph_ = &graph;
  Reader r = reader(bytes);
  bool ok = true;
  while (ok && !r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) {
      ok = wireError(r);
      break;
    }
    switch (field) {
      case 1: {
        Node* node = arena_.make<Node>();
        graph.appendNode(node);
        ONYX_SUBMESSAGE(decodeNode, *node, "node");
        if (!ok) within("node", graph.node_count - 1, node->name);
        break;
      }
      case 2:
        ok = readString(r, wt, graph.name, "name", true);
        break;
      case 5: {
        Tensor* tensor = arena_.make<Tensor>();
        graph.initializers.push_back(arena_, tensor);
        ONYX_SUBMESSAGE(decodeTensor, *tensor, "initializer");
        if (!ok) {
          within("initializer", graph.initializers.size() - 1, tensor->name);
          break;
        }
        if (tensor->name.has_value() && !tensor->name->empty()) {
          Value* value = defineAs(graph, *tensor->name, Role::kInitializer);
          if (value->initializer == nullptr) value->initializer = tensor;
        }
        break;
      }
      case 10:
        ok = readString(r, wt, graph.doc_string, "doc_string", false);
        break;
      case 11:
      case 12:
      case 13: {
        ValueInfo* info = arena_.make<ValueInfo>();
        ArenaList<ValueInfo*>& list = field == 11   ? graph.inputs
                                      : field == 12 ? graph.outputs
                                                    : graph.value_info;
        const char* list_name = field == 11 ? "input" : field == 12 ? "output" : "value_info";
        list.push_back(arena_, info);
        ONYX_SUBMESSAGE(decodeValueInfo, *info, list_name);
        if (!ok) {
          within(list_name, list.size() - 1, info->name);
          break;
        }
        if (!info->name.has_value() || info->name->empty()) break;
        if (field == 11) {
          Value* value = defineAs(graph, *info->name, Role::kGraphInput);
          if (value->input == nullptr) value->input = info;
          info->value = value;
        } else if (field == 12) {
          info->output.set(valueForRead(graph, *info->name));
        }
        break;
      }
      case 14: {
        TensorAnnotation* annotation = arena_.make<TensorAnnotation>();
        graph.quantization_annotation.push_back(arena_, annotation);
        ONYX_SUBMESSAGE(decodeAnnotation, *annotation, "quantization_annotation");
        if (!ok) within("quantization_annotation", graph.quantization_annotation.size() - 1);
        break;
      }
      case 15: {
        SparseTensor* sparse = arena_.make<SparseTensor>();
        graph.sparse_initializers.push_back(arena_, sparse);
        ONYX_SUBMESSAGE(decodeSparseTensor, *sparse, "sparse_initializer");
        OptString sparse_name = sparse->values ? sparse->values->name : OptString();
        if (!ok) {
          within("sparse_initializer", graph.sparse_initializers.size() - 1, sparse_name);
          break;
        }
        if (sparse_name.has_value() && !sparse_name->empty()) {
          Value* value = defineAs(graph, *sparse_name, Role::kSparseInitializer);
          if (value->sparse_initializer == nullptr) value->sparse_initializer = sparse;
        }
        break;
      }
      case 16:
        ok = decodeEntries(r, wt, graph.metadata_props, "metadata_props");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, graph.unknown);
    }
  }
  current_graph_ = saved_graph;
  return ok;
}

bool Decoder::decodeNode(std::string_view bytes, Node& node) {
  Graph& graph = *current_graph_;
  Node* saved_node = current_node_;
  current_node_ = &node;
  ArenaList<std::string_view> input_names;
  Reader r = reader(bytes);
  bool ok = true;
  while (ok && !r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) {
      ok = wireError(r);
      break;
    }
    switch (field) {
      case 1:
        ok = readBytesList(r, wt, input_names, "input", true);
        break;
      case 2: {
        OptString name;
        ok = readString(r, wt, name, "output", true);
        if (!ok) break;
        Value* value = nullptr;
        if (!name->empty()) {
          value = defineAs(graph, *name, Role::kNodeOutput);
          value->producer = &node;
          value->output_index = static_cast<uint32_t>(node.outputs.size());
        }
        node.outputs.push_back(arena_, value);
        break;
      }
      case 3:
        ok = readString(r, wt, node.name, "name", true);
        break;
      case 4:
        ok = readString(r, wt, node.op_type, "op_type", true);
        break;
      case 5: {
        Attribute* attribute = arena_.make<Attribute>();
        node.attributes.push_back(arena_, attribute);
        ONYX_SUBMESSAGE(decodeAttribute, *attribute, "attribute");
        if (!ok) within("attribute", node.attributes.size() - 1, attribute->name);
        break;
      }
      case 6:
        ok = readString(r, wt, node.doc_string, "doc_string", false);
        break;
      case 7:
        ok = readString(r, wt, node.domain, "domain", true);
        break;
      case 8:
        ok = readString(r, wt, node.overload, "overload", true);
        break;
      case 9:
        ok = decodeEntries(r, wt, node.metadata_props, "metadata_props");
        break;
      case 10: {
        NodeDeviceConfiguration* config = arena_.make<NodeDeviceConfiguration>();
        node.device_configurations.push_back(arena_, config);
        ONYX_SUBMESSAGE(decodeNodeDeviceConfiguration, *config, "device_configurations");
        if (!ok) within("device_configurations", node.device_configurations.size() - 1);
        break;
      }
      default:
        ok = keepUnknown(r, field, wt, key_start, node.unknown);
    }
  }
  current_node_ = saved_node;
  if (!ok) return false;
  // The input slots are allocated once, at their final size, so the links never move.
  node.inputs.resize(arena_, input_names.size());
  for (size_t i = 0; i < input_names.size(); ++i) {
    Use& use = node.inputs[i];
    use.user = &node;
    if (!input_names[i].empty()) use.set(valueForRead(graph, input_names[i]));
  }
  return true;
}

bool Decoder::decodeAttribute(std::string_view bytes, Attribute& attribute) {
  Reader r = reader(bytes);
  auto lists = [&]() -> AttributeLists& {
    if (attribute.lists == nullptr) attribute.lists = arena_.make<AttributeLists>();
    return *attribute.lists;
  };
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        ok = readString(r, wt, attribute.name, "name", true);
        break;
      case 2:
        ok = readFloat(r, wt, attribute.f, "f");
        break;
      case 3:
        ok = readInt64(r, wt, attribute.i, "i");
        break;
      case 4:
        ok = readString(r, wt, attribute.s, "s", false);
        break;
      case 5:
        if (attribute.t == nullptr) attribute.t = arena_.make<Tensor>();
        ONYX_SUBMESSAGE(decodeTensor, *attribute.t, "t");
        if (!ok) return within("t");
        break;
      case 6:
        if (attribute.g == nullptr) attribute.g = newGraph(current_graph_, current_node_);
        ONYX_SUBMESSAGE(decodeGraph, *attribute.g, "g");
        if (!ok) return within("g");
        break;
      case 7:
        ok = readRepeatedFloat(r, wt, attribute.floats, "floats");
        break;
      case 8:
        ok = readRepeatedInt64(r, wt, attribute.ints, "ints");
        break;
      case 9:
        ok = readBytesList(r, wt, lists().strings, "strings", false);
        break;
      case 10: {
        Tensor* tensor = arena_.make<Tensor>();
        lists().tensors.push_back(arena_, tensor);
        ONYX_SUBMESSAGE(decodeTensor, *tensor, "tensors");
        if (!ok) return within("tensors", lists().tensors.size() - 1, tensor->name);
        break;
      }
      case 11: {
        Graph* graph = newGraph(current_graph_, current_node_);
        lists().graphs.push_back(arena_, graph);
        ONYX_SUBMESSAGE(decodeGraph, *graph, "graphs");
        if (!ok) return within("graphs", lists().graphs.size() - 1, graph->name);
        break;
      }
      case 13:
        ok = readString(r, wt, attribute.doc_string, "doc_string", false);
        break;
      case 14:
        if (attribute.tp == nullptr) attribute.tp = arena_.make<Type>();
        ONYX_SUBMESSAGE(decodeType, *attribute.tp, "tp");
        if (!ok) return within("tp");
        break;
      case 15: {
        Type* type = arena_.make<Type>();
        lists().type_protos.push_back(arena_, type);
        ONYX_SUBMESSAGE(decodeType, *type, "type_protos");
        if (!ok) return within("type_protos", lists().type_protos.size() - 1);
        break;
      }
      case 20:
        ok = readInt32(r, wt, attribute.type, "type");
        break;
      case 21:
        ok = readString(r, wt, attribute.ref_attr_name, "ref_attr_name", true);
        break;
      case 22:
        if (attribute.sparse_tensor == nullptr)
          attribute.sparse_tensor = arena_.make<SparseTensor>();
        ONYX_SUBMESSAGE(decodeSparseTensor, *attribute.sparse_tensor, "sparse_tensor");
        if (!ok) return within("sparse_tensor");
        break;
      case 23: {
        SparseTensor* sparse = arena_.make<SparseTensor>();
        lists().sparse_tensors.push_back(arena_, sparse);
        ONYX_SUBMESSAGE(decodeSparseTensor, *sparse, "sparse_tensors");
        if (!ok) return within("sparse_tensors", lists().sparse_tensors.size() - 1);
        break;
      }
      default:
        ok = keepUnknown(r, field, wt, key_start, attribute.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeValueInfo(std::string_view bytes, ValueInfo& info) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        ok = readString(r, wt, info.name, "name", true);
        break;
      case 2:
        if (info.type == nullptr) info.type = arena_.make<Type>();
        ONYX_SUBMESSAGE(decodeType, *info.type, "type");
        if (!ok) return within("type");
        break;
      case 3:
        ok = readString(r, wt, info.doc_string, "doc_string", false);
        break;
      case 4:
        ok = decodeEntries(r, wt, info.metadata_props, "metadata_props");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, info.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeType(std::string_view bytes, Type& type) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
      case 4:
      case 5:
      case 7:
      case 8:
      case 9: {
        auto kind = static_cast<Type::Kind>(field);
        if (type.kind != kind) {
          // Setting another member of the oneof clears the one that was set.
          Type fresh;
          fresh.denotation = type.denotation;
          fresh.unknown = type.unknown;
          fresh.kind = kind;
          type = fresh;
        }
        ONYX_SUBMESSAGE(decodeTypeMember, type, "value");
        if (!ok) {
          const char* member = field == 1   ? "tensor_type"
                               : field == 4 ? "sequence_type"
                               : field == 5 ? "map_type"
                               : field == 7 ? "opaque_type"
                               : field == 8 ? "sparse_tensor_type"
                                            : "optional_type";
          return within(member);
        }
        break;
      }
      case 6:
        ok = readString(r, wt, type.denotation, "denotation", false);
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, type.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeTypeMember(std::string_view bytes, Type& type) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (type.kind) {
      case Type::Kind::kTensor:
      case Type::Kind::kSparseTensor:
        if (field == 1) {
          ok = readInt32(r, wt, type.elem_type, "elem_type");
        } else if (field == 2) {
          if (type.shape == nullptr) type.shape = arena_.make<TensorShape>();
          ONYX_SUBMESSAGE(decodeShape, *type.shape, "shape");
          if (!ok) return within("shape");
        } else {
          ok = keepUnknown(r, field, wt, key_start, type.member_unknown);
        }
        break;
      case Type::Kind::kSequence:
      case Type::Kind::kOptional:
        if (field == 1) {
          if (type.elem == nullptr) type.elem = arena_.make<Type>();
          ONYX_SUBMESSAGE(decodeType, *type.elem, "elem_type");
          if (!ok) return within("elem_type");
        } else {
          ok = keepUnknown(r, field, wt, key_start, type.member_unknown);
        }
        break;
      case Type::Kind::kMap:
        if (field == 1) {
          ok = readInt32(r, wt, type.key_type, "key_type");
        } else if (field == 2) {
          if (type.elem == nullptr) type.elem = arena_.make<Type>();
          ONYX_SUBMESSAGE(decodeType, *type.elem, "value_type");
          if (!ok) return within("value_type");
        } else {
          ok = keepUnknown(r, field, wt, key_start, type.member_unknown);
        }
        break;
      case Type::Kind::kOpaque:
        if (field == 1) {
          ok = readString(r, wt, type.opaque_domain, "domain", false);
        } else if (field == 2) {
          ok = readString(r, wt, type.opaque_name, "name", false);
        } else {
          ok = keepUnknown(r, field, wt, key_start, type.member_unknown);
        }
        break;
      case Type::Kind::kNone:
        ok = keepUnknown(r, field, wt, key_start, type.member_unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeShape(std::string_view bytes, TensorShape& shape) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    if (field == 1) {
      Dimension& dim = shape.dims.emplace_back(arena_);
      ONYX_SUBMESSAGE(decodeDimension, dim, "dim");
      if (!ok) return within("dim", shape.dims.size() - 1);
    } else {
      ok = keepUnknown(r, field, wt, key_start, shape.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeDimension(std::string_view bytes, Dimension& dim) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        ok = readInt64(r, wt, dim.dim_value, "dim_value");
        dim.dim_param.reset();
        break;
      case 2:
        ok = readString(r, wt, dim.dim_param, "dim_param", true);
        dim.dim_value.reset();
        break;
      case 3:
        ok = readString(r, wt, dim.denotation, "denotation", false);
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, dim.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeSegment(std::string_view bytes, TensorSegment& segment) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok;
    switch (field) {
      case 1:
        ok = readInt64(r, wt, segment.begin, "begin");
        break;
      case 2:
        ok = readInt64(r, wt, segment.end, "end");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, segment.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeTensor(std::string_view bytes, Tensor& tensor) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        ok = readRepeatedInt64(r, wt, tensor.dims, "dims");
        break;
      case 2:
        ok = readInt32(r, wt, tensor.data_type, "data_type");
        break;
      case 3:
        if (tensor.segment == nullptr) tensor.segment = arena_.make<TensorSegment>();
        ONYX_SUBMESSAGE(decodeSegment, *tensor.segment, "segment");
        if (!ok) return within("segment");
        break;
      case 4:
        ok = readPacked(r, wt, tensor.float_data, PackedKind::kFixed32, "float_data");
        break;
      case 5:
        ok = readPacked(r, wt, tensor.int32_data, PackedKind::kVarint, "int32_data");
        break;
      case 6:
        ok = readBytesList(r, wt, tensor.string_data, "string_data", false);
        break;
      case 7:
        ok = readPacked(r, wt, tensor.int64_data, PackedKind::kVarint, "int64_data");
        break;
      case 8:
        ok = readString(r, wt, tensor.name, "name", true);
        break;
      case 9:
        ok = readString(r, wt, tensor.raw_data, "raw_data", false);
        break;
      case 10:
        ok = readPacked(r, wt, tensor.double_data, PackedKind::kFixed64, "double_data");
        break;
      case 11:
        ok = readPacked(r, wt, tensor.uint64_data, PackedKind::kVarint, "uint64_data");
        break;
      case 12:
        ok = readString(r, wt, tensor.doc_string, "doc_string", false);
        break;
      case 13:
        ok = decodeEntries(r, wt, tensor.external_data, "external_data");
        break;
      case 14:
        ok = readInt32(r, wt, tensor.data_location, "data_location");
        break;
      case 16:
        ok = decodeEntries(r, wt, tensor.metadata_props, "metadata_props");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, tensor.unknown);
    }
    if (!ok) return false;
  }
  return checkTensor(tensor, r);
}

bool Decoder::checkTensor(const Tensor& tensor, const Reader& r) {
  // Every later use multiplies the dims; refuse here what no use could survive.
  auto count = elementCount(std::span<const int64_t>(tensor.dims.begin(), tensor.dims.size()));
  if (!count) {
    Status status = std::move(count).takeStatus();
    return failField("dims", status.code(), status.message(), r.offset());
  }
  if (tensor.isExternal()) external_tensors_.push_back(const_cast<Tensor*>(&tensor));
  return true;
}

bool Decoder::decodeSparseTensor(std::string_view bytes, SparseTensor& sparse) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        if (sparse.values == nullptr) sparse.values = arena_.make<Tensor>();
        ONYX_SUBMESSAGE(decodeTensor, *sparse.values, "values");
        if (!ok) return within("values");
        break;
      case 2:
        if (sparse.indices == nullptr) sparse.indices = arena_.make<Tensor>();
        ONYX_SUBMESSAGE(decodeTensor, *sparse.indices, "indices");
        if (!ok) return within("indices");
        break;
      case 3:
        ok = readRepeatedInt64(r, wt, sparse.dims, "dims");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, sparse.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeFunction(std::string_view bytes, Function& function) {
  if (function.body == nullptr) function.body = newGraph(nullptr, nullptr);
  Graph& body = *function.body;
  Graph* saved_graph = current_graph_;
  Node* saved_node = current_node_;
  Reader r = reader(bytes);
  bool ok = true;
  while (ok && !r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) {
      ok = wireError(r);
      break;
    }
    switch (field) {
      case 1:
        ok = readString(r, wt, function.name, "name", true);
        break;
      case 4: {
        OptString name;
        ok = readString(r, wt, name, "input", true);
        if (!ok) break;
        Value* value = nullptr;
        if (!name->empty()) {
          value = defineAs(body, *name, Role::kFunctionInput);
          value->function_input = true;
        }
        function.inputs.push_back(arena_, value);
        break;
      }
      case 5: {
        OptString name;
        ok = readString(r, wt, name, "output", true);
        if (!ok) break;
        Use* use = arena_.make<Use>();
        // An empty output name reads nothing; the writer prints "" for a null value.
        if (!name->empty()) use->set(valueForRead(body, *name));
        function.outputs.push_back(arena_, use);
        break;
      }
      case 6:
        ok = readBytesList(r, wt, function.attribute, "attribute", true);
        break;
      case 7: {
        current_graph_ = &body;
        current_node_ = nullptr;
        Node* node = arena_.make<Node>();
        body.appendNode(node);
        ONYX_SUBMESSAGE(decodeNode, *node, "node");
        current_graph_ = saved_graph;
        current_node_ = saved_node;
        if (!ok) within("node", body.node_count - 1, node->name);
        break;
      }
      case 8:
        ok = readString(r, wt, function.doc_string, "doc_string", false);
        break;
      case 9: {
        OperatorSetId& opset = function.opset_import.emplace_back(arena_);
        ONYX_SUBMESSAGE(decodeOpsetId, opset, "opset_import");
        if (!ok) within("opset_import", function.opset_import.size() - 1);
        break;
      }
      case 10:
        ok = readString(r, wt, function.domain, "domain", true);
        break;
      case 11: {
        // Attribute defaults are not in the body's scope: a graph default has no parent.
        current_graph_ = nullptr;
        current_node_ = nullptr;
        Attribute* attribute = arena_.make<Attribute>();
        function.attribute_proto.push_back(arena_, attribute);
        ONYX_SUBMESSAGE(decodeAttribute, *attribute, "attribute_proto");
        current_graph_ = saved_graph;
        current_node_ = saved_node;
        if (!ok) within("attribute_proto", function.attribute_proto.size() - 1, attribute->name);
        break;
      }
      case 12: {
        ValueInfo* info = arena_.make<ValueInfo>();
        body.value_info.push_back(arena_, info);
        ONYX_SUBMESSAGE(decodeValueInfo, *info, "value_info");
        if (!ok) within("value_info", body.value_info.size() - 1, info->name);
        break;
      }
      case 13:
        ok = readString(r, wt, function.overload, "overload", true);
        break;
      case 14:
        ok = decodeEntries(r, wt, function.metadata_props, "metadata_props");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, function.unknown);
    }
  }
  return ok;
}

bool Decoder::decodeAnnotation(std::string_view bytes, TensorAnnotation& annotation) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok;
    switch (field) {
      case 1:
        ok = readString(r, wt, annotation.tensor_name, "tensor_name", true);
        break;
      case 2:
        ok = decodeEntries(r, wt, annotation.quant_parameter_tensor_names,
                           "quant_parameter_tensor_names");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, annotation.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeDeviceConfiguration(std::string_view bytes, DeviceConfiguration& config) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok;
    switch (field) {
      case 1:
        ok = readString(r, wt, config.name, "name", false);
        break;
      case 2:
        ok = readInt32(r, wt, config.num_devices, "num_devices");
        break;
      case 3:
        ok = readBytesList(r, wt, config.device, "device", false);
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, config.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeNodeDeviceConfiguration(std::string_view bytes,
                                            NodeDeviceConfiguration& config) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        ok = readString(r, wt, config.configuration_id, "configuration_id", false);
        break;
      case 2: {
        ShardingSpec* spec = arena_.make<ShardingSpec>();
        config.sharding_spec.push_back(arena_, spec);
        ONYX_SUBMESSAGE(decodeShardingSpec, *spec, "sharding_spec");
        if (!ok) return within("sharding_spec", config.sharding_spec.size() - 1);
        break;
      }
      case 3:
        ok = readInt32(r, wt, config.pipeline_stage, "pipeline_stage");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, config.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeShardingSpec(std::string_view bytes, ShardingSpec& spec) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        ok = readString(r, wt, spec.tensor_name, "tensor_name", false);
        break;
      case 2:
        ok = readRepeatedInt64(r, wt, spec.device, "device");
        break;
      case 3: {
        IntIntListEntry* entry = arena_.make<IntIntListEntry>();
        spec.index_to_device_group_map.push_back(arena_, entry);
        ONYX_SUBMESSAGE(decodeIntIntListEntry, *entry, "index_to_device_group_map");
        if (!ok) {
          return within("index_to_device_group_map", spec.index_to_device_group_map.size() - 1);
        }
        break;
      }
      case 4: {
        ShardedDim* dim = arena_.make<ShardedDim>();
        spec.sharded_dim.push_back(arena_, dim);
        ONYX_SUBMESSAGE(decodeShardedDim, *dim, "sharded_dim");
        if (!ok) return within("sharded_dim", spec.sharded_dim.size() - 1);
        break;
      }
      default:
        ok = keepUnknown(r, field, wt, key_start, spec.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeIntIntListEntry(std::string_view bytes, IntIntListEntry& entry) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok;
    switch (field) {
      case 1:
        ok = readInt64(r, wt, entry.key, "key");
        break;
      case 2:
        ok = readRepeatedInt64(r, wt, entry.value, "value");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, entry.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeShardedDim(std::string_view bytes, ShardedDim& dim) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok = true;
    switch (field) {
      case 1:
        ok = readInt64(r, wt, dim.axis, "axis");
        break;
      case 2: {
        SimpleShardedDim* simple = arena_.make<SimpleShardedDim>();
        dim.simple_sharding.push_back(arena_, simple);
        ONYX_SUBMESSAGE(decodeSimpleShardedDim, *simple, "simple_sharding");
        if (!ok) return within("simple_sharding", dim.simple_sharding.size() - 1);
        break;
      }
      default:
        ok = keepUnknown(r, field, wt, key_start, dim.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::decodeSimpleShardedDim(std::string_view bytes, SimpleShardedDim& dim) {
  Reader r = reader(bytes);
  while (!r.atEnd()) {
    const char* key_start = r.position();
    uint32_t field;
    WireType wt;
    if (!r.readTag(field, wt)) return wireError(r);
    bool ok;
    switch (field) {
      case 1:
        ok = readInt64(r, wt, dim.dim_value, "dim_value");
        dim.dim_param.reset();
        break;
      case 2:
        ok = readString(r, wt, dim.dim_param, "dim_param", false);
        dim.dim_value.reset();
        break;
      case 3:
        ok = readInt64(r, wt, dim.num_shards, "num_shards");
        break;
      default:
        ok = keepUnknown(r, field, wt, key_start, dim.unknown);
    }
    if (!ok) return false;
  }
  return true;
}

#undef ONYX_SUBMESSAGE

}  // namespace onyx::serde
