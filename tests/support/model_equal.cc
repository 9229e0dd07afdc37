#include "support/model_equal.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "onyx/core/element_type.h"
#include "onyx/ir/tensor_data.h"

namespace onyx::testing {

namespace {

std::string show(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < 80; ++i) {
    char c = text[i];
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out.append("\\n");
      continue;
    }
    out.push_back(c);
  }
  if (text.size() > 80) out.append("...");
  out.push_back('"');
  return out;
}
std::string show(const OptString& text) { return text ? show(*text) : "(absent)"; }
std::string show(int64_t value) { return std::to_string(value); }
std::string show(int32_t value) { return std::to_string(value); }
std::string show(float value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9g (bits 0x%08x)", static_cast<double>(value),
                std::bit_cast<uint32_t>(value));
  return buffer;
}
template <class T>
std::string show(const std::optional<T>& value) {
  return value ? show(*value) : std::string("(absent)");
}
std::string presence(const void* pointer) { return pointer ? "(present)" : "(absent)"; }
std::string entries(size_t count) { return std::to_string(count) + " entries"; }

std::string_view valueName(const Value* value) {
  return value ? value->name() : std::string_view();
}
std::string_view infoName(const ValueInfo& info) {
  const Value* bound = info.bound();
  return bound ? bound->name() : info.name.value_or("");
}

// NaN payloads have no text form: in text mode every NaN becomes the default NaN of its sign.
void canonicalizeNans(std::string& bytes, int32_t data_type) {
  auto type = static_cast<ElementType>(data_type);
  if (type == ElementType::kFloat || type == ElementType::kComplex64) {
    for (size_t at = 0; at + 4 <= bytes.size(); at += 4) {
      float value;
      std::memcpy(&value, bytes.data() + at, 4);
      if (!std::isnan(value)) continue;
      uint32_t bits = std::signbit(value) ? 0xffc00000u : 0x7fc00000u;
      std::memcpy(bytes.data() + at, &bits, 4);
    }
  } else if (type == ElementType::kDouble || type == ElementType::kComplex128) {
    for (size_t at = 0; at + 8 <= bytes.size(); at += 8) {
      double value;
      std::memcpy(&value, bytes.data() + at, 8);
      if (!std::isnan(value)) continue;
      uint64_t bits = std::signbit(value) ? 0xfff8000000000000ull : 0x7ff8000000000000ull;
      std::memcpy(bytes.data() + at, &bits, 8);
    }
  }
}

class Comparer {
 public:
  explicit Comparer(const ModelEqualOptions& options) : text_(options.ignore_text_losses) {}

  std::optional<ModelDifference> difference;

  bool model(const Model& a, const Model& b) {
    return same("ir_version", a.ir_version, b.ir_version) &&
           list("opset_import", a.opset_import, b.opset_import, &Comparer::opset,
                [](const OperatorSetId& o) { return o.domain.value_or(""); }) &&
           same("producer_name", a.producer_name, b.producer_name) &&
           same("producer_version", a.producer_version, b.producer_version) &&
           same("domain", a.domain, b.domain) &&
           same("model_version", a.model_version, b.model_version) &&
           same("doc_string", a.doc_string, b.doc_string) &&
           pointer("graph", a.graph, b.graph, &Comparer::graph) &&
           stringEntries("metadata_props", a.metadata_props, b.metadata_props) &&
           (text_ || pointerList("training_info", a.training_info, b.training_info,
                                 &Comparer::trainingInfo)) &&
           pointerList("functions", a.functions, b.functions, &Comparer::function,
                       [](const Function* f) { return f->nameOrEmpty(); }) &&
           (text_ || pointerList("configuration", a.configuration, b.configuration,
                                 &Comparer::deviceConfiguration)) &&
           unknown(a.unknown, b.unknown);
  }

 private:
  struct Scope {
    Scope(Comparer& comparer, std::string segment) : comparer_(comparer) {
      comparer_.path_.push_back(std::move(segment));
    }
    ~Scope() { comparer_.path_.pop_back(); }
    Comparer& comparer_;
  };

  static std::string segment(std::string_view field, size_t index, std::string_view name) {
    std::string text(field);
    text += "[" + std::to_string(index) + "]";
    if (!name.empty()) text += "(" + std::string(name) + ")";
    return text;
  }

  bool differ(std::string_view field, std::string left, std::string right) {
    if (!difference) {
      std::string path;
      for (const std::string& part : path_) {
        if (!path.empty()) path += '.';
        path += part;
      }
      if (!field.empty()) {
        if (!path.empty()) path += '.';
        path += field;
      }
      difference = ModelDifference{path, std::move(left), std::move(right)};
    }
    return false;
  }

  // ---- scalars and lists --------------------------------------------------------------

  template <class T>
  bool same(std::string_view field, const std::optional<T>& a, const std::optional<T>& b) {
    bool equal = text_ ? a.value_or(T{}) == b.value_or(T{}) : a == b;
    return equal || differ(field, show(a), show(b));
  }
  bool same(std::string_view field, const std::optional<float>& a, const std::optional<float>& b) {
    if (text_) {
      float x = a.value_or(0.0f);
      float y = b.value_or(0.0f);
      bool equal = std::bit_cast<uint32_t>(x) == std::bit_cast<uint32_t>(y) ||
                   (std::isnan(x) && std::isnan(y) && std::signbit(x) == std::signbit(y));
      return equal || differ(field, show(a), show(b));
    }
    bool equal = a.has_value() == b.has_value() &&
                 (!a || std::bit_cast<uint32_t>(*a) == std::bit_cast<uint32_t>(*b));
    return equal || differ(field, show(a), show(b));
  }
  bool same(std::string_view field, const OptString& a, const OptString& b) {
    bool equal = text_ ? a.value_or("") == b.value_or("") : a == b;
    return equal || differ(field, show(a), show(b));
  }
  bool sameName(std::string_view field, std::string_view a, std::string_view b) {
    return a == b || differ(field, show(a), show(b));
  }
  bool sameDoc(std::string_view field, const OptString& a, const OptString& b) {
    return text_ || same(field, a, b);
  }

  bool unknown(const UnknownFields& a, const UnknownFields& b) {
    if (text_) return true;
    if (a.size() != b.size()) return differ("unknown", entries(a.size()), entries(b.size()));
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].number != b[i].number || a[i].encoded != b[i].encoded) {
        return differ(segment("unknown", i, ""), "field " + std::to_string(a[i].number),
                      "field " + std::to_string(b[i].number));
      }
    }
    return true;
  }

  template <class T, class Name = std::nullptr_t>
  bool list(std::string_view field, const ArenaList<T>& a, const ArenaList<T>& b,
            bool (Comparer::*each)(const T&, const T&), Name name = nullptr) {
    if (a.size() != b.size()) return differ(field, entries(a.size()), entries(b.size()));
    for (size_t i = 0; i < a.size(); ++i) {
      std::string_view label;
      if constexpr (!std::is_same_v<Name, std::nullptr_t>) label = name(a[i]);
      Scope scope(*this, segment(field, i, label));
      if (!(this->*each)(a[i], b[i])) return false;
    }
    return true;
  }
  template <class T, class Name = std::nullptr_t>
  bool pointerList(std::string_view field, const ArenaList<T*>& a, const ArenaList<T*>& b,
                   bool (Comparer::*each)(const T&, const T&), Name name = nullptr) {
    if (a.size() != b.size()) return differ(field, entries(a.size()), entries(b.size()));
    for (size_t i = 0; i < a.size(); ++i) {
      std::string_view label;
      if constexpr (!std::is_same_v<Name, std::nullptr_t>) label = name(a[i]);
      Scope scope(*this, segment(field, i, label));
      if (!(this->*each)(*a[i], *b[i])) return false;
    }
    return true;
  }
  template <class T>
  bool pointer(std::string_view field, const T* a, const T* b,
               bool (Comparer::*each)(const T&, const T&)) {
    if ((a == nullptr) != (b == nullptr)) return differ(field, presence(a), presence(b));
    if (a == nullptr) return true;
    Scope scope(*this, std::string(field));
    return (this->*each)(*a, *b);
  }
  bool stringList(std::string_view field, const ArenaList<std::string_view>& a,
                  const ArenaList<std::string_view>& b) {
    if (a.size() != b.size()) return differ(field, entries(a.size()), entries(b.size()));
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) return differ(segment(field, i, ""), show(a[i]), show(b[i]));
    }
    return true;
  }
  template <class T>
  bool repeated(std::string_view field, const Repeated<T>& a, const Repeated<T>& b) {
    if (a.size() != b.size()) return differ(field, entries(a.size()), entries(b.size()));
    for (size_t i = 0; i < a.size(); ++i) {
      if constexpr (std::is_same_v<T, float>) {
        if (!same(segment(field, i, ""), std::optional<float>(a[i]), std::optional<float>(b[i]))) {
          return false;
        }
      } else if (a[i] != b[i]) {
        return differ(segment(field, i, ""), show(a[i]), show(b[i]));
      }
    }
    return true;
  }

  // ---- messages -------------------------------------------------------------------------

  bool entry(const StringStringEntry& a, const StringStringEntry& b) {
    return same("key", a.key, b.key) && same("value", a.value, b.value) &&
           unknown(a.unknown, b.unknown);
  }
  bool stringEntries(std::string_view field, const ArenaList<StringStringEntry>& a,
                     const ArenaList<StringStringEntry>& b) {
    return list(field, a, b, &Comparer::entry,
                [](const StringStringEntry& e) { return e.key.value_or(""); });
  }
  bool opset(const OperatorSetId& a, const OperatorSetId& b) {
    return same("domain", a.domain, b.domain) && same("version", a.version, b.version) &&
           unknown(a.unknown, b.unknown);
  }

  bool graph(const Graph& a, const Graph& b) {
    if (a.nodeCount() != b.nodeCount()) {
      return differ("node", entries(a.nodeCount()), entries(b.nodeCount()));
    }
    size_t index = 0;
    for (const Node *x = a.firstNode(), *y = b.firstNode(); x != nullptr;
         x = x->next(), y = y->next(), ++index) {
      Scope scope(*this, segment("node", index, x->nameOrEmpty()));
      if (!node(*x, *y)) return false;
    }
    return same("name", a.name, b.name) &&
           pointerList("initializer", a.initializers, b.initializers, &Comparer::tensor,
                       [](const Tensor* t) { return t->nameOrEmpty(); }) &&
           sameDoc("doc_string", a.doc_string, b.doc_string) &&
           pointerList("input", a.inputs, b.inputs, &Comparer::valueInfo, infoNameOf) &&
           pointerList("output", a.outputs, b.outputs, &Comparer::valueInfo, infoNameOf) &&
           pointerList("value_info", a.value_info, b.value_info, &Comparer::valueInfo,
                       infoNameOf) &&
           (text_ || pointerList("quantization_annotation", a.quantization_annotation,
                                 b.quantization_annotation, &Comparer::annotation)) &&
           (text_ || pointerList("sparse_initializer", a.sparse_initializers, b.sparse_initializers,
                                 &Comparer::sparseTensor)) &&
           (text_ || stringEntries("metadata_props", a.metadata_props, b.metadata_props)) &&
           unknown(a.unknown, b.unknown);
  }
  static std::string_view infoNameOf(const ValueInfo* info) { return infoName(*info); }

  bool node(const Node& a, const Node& b) {
    const NodeRareFields& ra = a.rare();
    const NodeRareFields& rb = b.rare();
    if (a.inputCount() != b.inputCount()) {
      return differ("input", entries(a.inputCount()), entries(b.inputCount()));
    }
    for (size_t i = 0; i < a.inputCount(); ++i) {
      if (!sameName(segment("input", i, ""), valueName(a.input(i)), valueName(b.input(i)))) {
        return false;
      }
    }
    if (a.outputCount() != b.outputCount()) {
      return differ("output", entries(a.outputCount()), entries(b.outputCount()));
    }
    for (size_t i = 0; i < a.outputCount(); ++i) {
      if (!sameName(segment("output", i, ""), valueName(a.output(i)), valueName(b.output(i)))) {
        return false;
      }
    }
    return same("name", a.name, b.name) && same("op_type", a.op_type, b.op_type) &&
           pointerList("attribute", a.attributes, b.attributes, &Comparer::attribute,
                       [](const Attribute* x) { return x->nameOrEmpty(); }) &&
           sameDoc("doc_string", ra.doc_string, rb.doc_string) &&
           same("domain", a.domain, b.domain) && same("overload", ra.overload, rb.overload) &&
           (text_ || stringEntries("metadata_props", ra.metadata_props, rb.metadata_props)) &&
           (text_ || pointerList("device_configurations", ra.device_configurations,
                                 rb.device_configurations, &Comparer::nodeDeviceConfiguration)) &&
           unknown(ra.unknown, rb.unknown);
  }

  bool attribute(const Attribute& a, const Attribute& b) {
    const AttributeRareFields& x = a.rare();
    const AttributeRareFields& y = b.rare();
    return same("name", a.name, b.name) && same("f", a.f, b.f) && same("i", a.i, b.i) &&
           same("s", a.s, b.s) && pointer("t", a.t, b.t, &Comparer::tensor) &&
           pointer("g", a.g, b.g, &Comparer::graph) && repeated("floats", a.floats, b.floats) &&
           repeated("ints", a.ints, b.ints) && stringList("strings", x.strings, y.strings) &&
           (text_ || pointerList("tensors", x.tensors, y.tensors, &Comparer::tensor)) &&
           (text_ || pointerList("graphs", x.graphs, y.graphs, &Comparer::graph)) &&
           sameDoc("doc_string", x.doc_string, y.doc_string) &&
           pointer("tp", x.tp, y.tp, &Comparer::type) &&
           (text_ || pointerList("type_protos", x.type_protos, y.type_protos, &Comparer::type)) &&
           same("type", a.type, b.type) &&
           same("ref_attr_name", x.ref_attr_name, y.ref_attr_name) &&
           (text_ ||
            pointer("sparse_tensor", x.sparse_tensor, y.sparse_tensor, &Comparer::sparseTensor)) &&
           (text_ || pointerList("sparse_tensors", x.sparse_tensors, y.sparse_tensors,
                                 &Comparer::sparseTensor)) &&
           unknown(x.unknown, y.unknown);
  }

  bool valueInfo(const ValueInfo& a, const ValueInfo& b) {
    return sameName("name", infoName(a), infoName(b)) &&
           pointer("type", spelledType(a.type), spelledType(b.type), &Comparer::type) &&
           sameDoc("doc_string", a.doc_string, b.doc_string) &&
           (text_ || stringEntries("metadata_props", a.metadata_props, b.metadata_props)) &&
           unknown(a.unknown, b.unknown);
  }

  // A value info's type as the text holds it: an empty TypeProto has no spelling, and is
  // written as no type.
  const Type* spelledType(const Type* type) const {
    if (text_ && type != nullptr && type->kind == Type::Kind::kNone) return nullptr;
    return type;
  }

  bool type(const Type& a, const Type& b) {
    if (a.kind != b.kind) {
      return differ("kind", std::to_string(static_cast<int>(a.kind)),
                    std::to_string(static_cast<int>(b.kind)));
    }
    return same("elem_type", a.elem_type, b.elem_type) &&
           pointer("shape", a.shape, b.shape, &Comparer::shape) &&
           pointer("elem", a.elem, b.elem, &Comparer::type) &&
           same("key_type", a.key_type, b.key_type) &&
           same("opaque_domain", a.opaque_domain, b.opaque_domain) &&
           same("opaque_name", a.opaque_name, b.opaque_name) &&
           sameDoc("denotation", a.denotation, b.denotation) && unknown(a.unknown, b.unknown) &&
           unknown(a.member_unknown, b.member_unknown);
  }
  bool shape(const TensorShape& a, const TensorShape& b) {
    return list("dim", a.dims, b.dims, &Comparer::dimension) && unknown(a.unknown, b.unknown);
  }
  bool dimension(const Dimension& a, const Dimension& b) {
    // A dim_value of 0 and an unknown dim differ even in text mode: `0` and `?` are spelled.
    if (a.dim_value.has_value() != b.dim_value.has_value() ||
        a.dim_param.has_value() != b.dim_param.has_value()) {
      auto describe = [](const Dimension& d) {
        return d.dim_value   ? show(d.dim_value)
               : d.dim_param ? show(d.dim_param)
                             : std::string("(unknown)");
      };
      return differ("", describe(a), describe(b));
    }
    return same("dim_value", a.dim_value, b.dim_value) &&
           same("dim_param", a.dim_param, b.dim_param) &&
           sameDoc("denotation", a.denotation, b.denotation) && unknown(a.unknown, b.unknown);
  }

  bool tensor(const Tensor& a, const Tensor& b) {
    if (!repeated("dims", a.dims, b.dims) || !same("data_type", a.data_type, b.data_type) ||
        !same("name", a.name, b.name) ||
        !sameDoc("doc_string", a.rare().doc_string, b.rare().doc_string) ||
        !stringEntries("external_data", a.rare().external_data, b.rare().external_data) ||
        !same("data_location", a.data_location, b.data_location) ||
        (!text_ && !pointer("segment", a.rare().segment, b.rare().segment, &Comparer::segmentOf)) ||
        (!text_ &&
         !stringEntries("metadata_props", a.rare().metadata_props, b.rare().metadata_props)) ||
        !unknown(a.rare().unknown, b.rare().unknown)) {
      return false;
    }
    if (a.isExternal()) return true;  // the references are equal; the data is in the file
    if (a.data_type.value_or(0) == static_cast<int32_t>(ElementType::kString)) {
      return stringList("string_data", a.rare().string_data, b.rare().string_data);
    }
    auto x = rawBytes(a);
    auto y = rawBytes(b);
    if (!x || !y) {
      if (!x && !y) return true;  // both unreadable the same way: nothing more to compare
      return differ("data", x ? "readable" : x.status().message(),
                    y ? "readable" : y.status().message());
    }
    std::string left(x->bytes());
    std::string right(y->bytes());
    if (text_) {
      canonicalizeNans(left, a.data_type.value_or(0));
      canonicalizeNans(right, a.data_type.value_or(0));
    }
    if (left == right) return true;
    size_t at = 0;
    while (at < left.size() && at < right.size() && left[at] == right[at]) ++at;
    return differ(
        "data", std::to_string(left.size()) + " bytes",
        std::to_string(right.size()) + " bytes, first difference at byte " + std::to_string(at));
  }
  bool segmentOf(const TensorSegment& a, const TensorSegment& b) {
    return same("begin", a.begin, b.begin) && same("end", a.end, b.end) &&
           unknown(a.unknown, b.unknown);
  }
  bool sparseTensor(const SparseTensor& a, const SparseTensor& b) {
    return pointer("values", a.values, b.values, &Comparer::tensor) &&
           pointer("indices", a.indices, b.indices, &Comparer::tensor) &&
           repeated("dims", a.dims, b.dims) && unknown(a.unknown, b.unknown);
  }

  bool function(const Function& a, const Function& b) {
    if (!same("name", a.name, b.name)) return false;
    if (a.inputs.size() != b.inputs.size()) {
      return differ("input", entries(a.inputs.size()), entries(b.inputs.size()));
    }
    for (size_t i = 0; i < a.inputs.size(); ++i) {
      if (!sameName(segment("input", i, ""), valueName(a.inputs[i]), valueName(b.inputs[i]))) {
        return false;
      }
    }
    if (a.outputs.size() != b.outputs.size()) {
      return differ("output", entries(a.outputs.size()), entries(b.outputs.size()));
    }
    for (size_t i = 0; i < a.outputs.size(); ++i) {
      if (!sameName(segment("output", i, ""), valueName(a.outputs[i]->value()),
                    valueName(b.outputs[i]->value()))) {
        return false;
      }
    }
    if (!stringList("attribute", a.attribute, b.attribute) ||
        !pointerList("attribute_proto", a.attribute_proto, b.attribute_proto, &Comparer::attribute,
                     [](const Attribute* x) { return x->nameOrEmpty(); })) {
      return false;
    }
    // The body holds the nodes and value_info; its other graph fields are not in the proto.
    const Graph& x = *a.body;
    const Graph& y = *b.body;
    if (x.nodeCount() != y.nodeCount()) {
      return differ("node", entries(x.nodeCount()), entries(y.nodeCount()));
    }
    size_t index = 0;
    for (const Node *m = x.firstNode(), *n = y.firstNode(); m != nullptr;
         m = m->next(), n = n->next(), ++index) {
      Scope scope(*this, segment("node", index, m->nameOrEmpty()));
      if (!node(*m, *n)) return false;
    }
    return same("doc_string", a.doc_string, b.doc_string) &&
           list("opset_import", a.opset_import, b.opset_import, &Comparer::opset) &&
           same("domain", a.domain, b.domain) &&
           pointerList("value_info", x.value_info, y.value_info, &Comparer::valueInfo,
                       infoNameOf) &&
           same("overload", a.overload, b.overload) &&
           (text_ || stringEntries("metadata_props", a.metadata_props, b.metadata_props)) &&
           unknown(a.unknown, b.unknown);
  }

  bool trainingInfo(const TrainingInfo& a, const TrainingInfo& b) {
    return pointer("initialization", a.initialization, b.initialization, &Comparer::graph) &&
           pointer("algorithm", a.algorithm, b.algorithm, &Comparer::graph) &&
           stringEntries("initialization_binding", a.initialization_binding,
                         b.initialization_binding) &&
           stringEntries("update_binding", a.update_binding, b.update_binding) &&
           unknown(a.unknown, b.unknown);
  }
  bool annotation(const TensorAnnotation& a, const TensorAnnotation& b) {
    return same("tensor_name", a.tensor_name, b.tensor_name) &&
           stringEntries("quant_parameter_tensor_names", a.quant_parameter_tensor_names,
                         b.quant_parameter_tensor_names) &&
           unknown(a.unknown, b.unknown);
  }
  bool deviceConfiguration(const DeviceConfiguration& a, const DeviceConfiguration& b) {
    return same("name", a.name, b.name) && same("num_devices", a.num_devices, b.num_devices) &&
           stringList("device", a.device, b.device) && unknown(a.unknown, b.unknown);
  }
  bool nodeDeviceConfiguration(const NodeDeviceConfiguration& a, const NodeDeviceConfiguration& b) {
    return same("configuration_id", a.configuration_id, b.configuration_id) &&
           pointerList("sharding_spec", a.sharding_spec, b.sharding_spec,
                       &Comparer::shardingSpec) &&
           same("pipeline_stage", a.pipeline_stage, b.pipeline_stage) &&
           unknown(a.unknown, b.unknown);
  }
  bool shardingSpec(const ShardingSpec& a, const ShardingSpec& b) {
    return same("tensor_name", a.tensor_name, b.tensor_name) &&
           repeated("device", a.device, b.device) &&
           pointerList("index_to_device_group_map", a.index_to_device_group_map,
                       b.index_to_device_group_map, &Comparer::intIntList) &&
           pointerList("sharded_dim", a.sharded_dim, b.sharded_dim, &Comparer::shardedDim) &&
           unknown(a.unknown, b.unknown);
  }
  bool intIntList(const IntIntListEntry& a, const IntIntListEntry& b) {
    return same("key", a.key, b.key) && repeated("value", a.value, b.value) &&
           unknown(a.unknown, b.unknown);
  }
  bool shardedDim(const ShardedDim& a, const ShardedDim& b) {
    return same("axis", a.axis, b.axis) &&
           pointerList("simple_sharding", a.simple_sharding, b.simple_sharding,
                       &Comparer::simpleShardedDim) &&
           unknown(a.unknown, b.unknown);
  }
  bool simpleShardedDim(const SimpleShardedDim& a, const SimpleShardedDim& b) {
    return same("dim_value", a.dim_value, b.dim_value) &&
           same("dim_param", a.dim_param, b.dim_param) &&
           same("num_shards", a.num_shards, b.num_shards) && unknown(a.unknown, b.unknown);
  }

  bool text_;
  std::vector<std::string> path_;
};

}  // namespace

std::optional<ModelDifference> firstDifference(const Model& left, const Model& right,
                                               const ModelEqualOptions& options) {
  Comparer comparer(options);
  comparer.model(left, right);
  return comparer.difference;
}

}  // namespace onyx::testing
