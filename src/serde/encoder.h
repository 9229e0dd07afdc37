// Internal: the IR → protobuf encoder, written once against a wire Sink (see wire/writer.h)
// and run twice, to size and to write.
//
// Fields go out in field-number order; fields onyx does not know go out where their number
// puts them, in the order they were read. Names of values are taken from the values, so a
// renamed value is written under its new name everywhere it is used.
#pragma once

#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "onyx/ir/model.h"
#include "onyx/ir/tensor_data.h"
#include "wire/writer.h"

namespace onyx::serde {

/// Tensors to write in place of others (the saver's external-data decisions).
using TensorReplacements = std::unordered_map<const Tensor*, const Tensor*>;

template <class Sink>
class Encoder {
 public:
  explicit Encoder(Sink& sink, const TensorReplacements* replacements = nullptr)
      : s_(sink), replacements_(replacements) {}

  // ---- messages -------------------------------------------------------------------------

  void model(const Model& m) {
    Unknown u(s_, m.unknown);
    u.upTo(1);
    i64(1, m.ir_version);
    u.upTo(2);
    str(2, m.producer_name);
    u.upTo(3);
    str(3, m.producer_version);
    u.upTo(4);
    str(4, m.domain);
    u.upTo(5);
    i64(5, m.model_version);
    u.upTo(6);
    str(6, m.doc_string);
    u.upTo(7);
    if (m.graph != nullptr) s_.message(7, [&] { graph(*m.graph); });
    u.upTo(8);
    for (const OperatorSetId& opset : m.opset_import) s_.message(8, [&] { opsetId(opset); });
    u.upTo(14);
    entries(14, m.metadata_props);
    u.upTo(20);
    for (const TrainingInfo* info : m.training_info) s_.message(20, [&] { trainingInfo(*info); });
    u.upTo(25);
    for (const Function* f : m.functions) s_.message(25, [&] { function(*f); });
    u.upTo(26);
    for (const DeviceConfiguration* c : m.configuration) {
      s_.message(26, [&] { deviceConfiguration(*c); });
    }
    u.rest();
  }

  void graph(const Graph& g) {
    Unknown u(s_, g.unknown);
    u.upTo(1);
    for (const Node* n = g.firstNode(); n != nullptr; n = n->next())
      s_.message(1, [&] { node(*n); });
    u.upTo(2);
    str(2, g.name);
    u.upTo(5);
    for (const Tensor* t : g.initializers) s_.message(5, [&] { tensor(*t); });
    u.upTo(10);
    str(10, g.doc_string);
    u.upTo(11);
    for (const ValueInfo* v : g.inputs) s_.message(11, [&] { valueInfo(*v); });
    u.upTo(12);
    for (const ValueInfo* v : g.outputs) s_.message(12, [&] { valueInfo(*v); });
    u.upTo(13);
    for (const ValueInfo* v : g.value_info) {
      if (!v->isRemoved()) s_.message(13, [&] { valueInfo(*v); });
    }
    u.upTo(14);
    for (const TensorAnnotation* a : g.quantization_annotation) {
      s_.message(14, [&] { annotation(*a); });
    }
    u.upTo(15);
    for (const SparseTensor* t : g.sparse_initializers) s_.message(15, [&] { sparseTensor(*t); });
    u.upTo(16);
    entries(16, g.metadata_props);
    u.rest();
  }

  void node(const Node& n) {
    const NodeRareFields& rare = n.rare();
    Unknown u(s_, rare.unknown);
    u.upTo(1);
    for (const Use& use : n.inputs()) s_.bytesField(1, use.value() ? use.value()->name() : "");
    u.upTo(2);
    for (const Value* v : n.outputs()) s_.bytesField(2, v ? v->name() : "");
    u.upTo(3);
    str(3, n.name);
    u.upTo(4);
    str(4, n.op_type);
    u.upTo(5);
    for (const Attribute* a : n.attributes) s_.message(5, [&] { attribute(*a); });
    u.upTo(6);
    str(6, rare.doc_string);
    u.upTo(7);
    str(7, n.domain);
    u.upTo(8);
    str(8, rare.overload);
    u.upTo(9);
    entries(9, rare.metadata_props);
    u.upTo(10);
    for (const NodeDeviceConfiguration* c : rare.device_configurations) {
      s_.message(10, [&] { nodeDeviceConfiguration(*c); });
    }
    u.rest();
  }

  void attribute(const Attribute& a) {
    const AttributeRareFields& more = a.rare();
    Unknown u(s_, more.unknown);
    u.upTo(1);
    str(1, a.name);
    u.upTo(2);
    f32(2, a.f);
    u.upTo(3);
    i64(3, a.i);
    u.upTo(4);
    str(4, a.s);
    u.upTo(5);
    if (a.t) s_.message(5, [&] { tensor(*a.t); });
    u.upTo(6);
    if (a.g) s_.message(6, [&] { graph(*a.g); });
    u.upTo(7);
    repeatedFloat(7, a.floats);
    u.upTo(8);
    repeatedInt64(8, a.ints);
    u.upTo(9);
    for (std::string_view text : more.strings) s_.bytesField(9, text);
    u.upTo(10);
    for (const Tensor* t : more.tensors) s_.message(10, [&] { tensor(*t); });
    u.upTo(11);
    for (const Graph* g : more.graphs) s_.message(11, [&] { graph(*g); });
    u.upTo(13);
    str(13, more.doc_string);
    u.upTo(14);
    if (more.tp) s_.message(14, [&] { type(*more.tp); });
    u.upTo(15);
    for (const Type* t : more.type_protos) s_.message(15, [&] { type(*t); });
    u.upTo(20);
    i32(20, a.type);
    u.upTo(21);
    str(21, more.ref_attr_name);
    u.upTo(22);
    if (more.sparse_tensor) s_.message(22, [&] { sparseTensor(*more.sparse_tensor); });
    u.upTo(23);
    for (const SparseTensor* t : more.sparse_tensors) s_.message(23, [&] { sparseTensor(*t); });
    u.rest();
  }

  void valueInfo(const ValueInfo& v) {
    Unknown u(s_, v.unknown);
    u.upTo(1);
    const Value* bound = v.bound();
    if (bound != nullptr) {
      s_.bytesField(1, bound->name());
    } else {
      str(1, v.name);
    }
    u.upTo(2);
    if (v.type) s_.message(2, [&] { type(*v.type); });
    u.upTo(3);
    str(3, v.doc_string);
    u.upTo(4);
    entries(4, v.metadata_props);
    u.rest();
  }

  void type(const Type& t) {
    Unknown u(s_, t.unknown);
    uint32_t member = static_cast<uint32_t>(t.kind);
    // The oneof member (fields 1, 4, 5, 7, 8, 9) and denotation (6) in number order.
    if (member != 0 && member < 6) {
      u.upTo(member);
      s_.message(member, [&] { typeMember(t); });
    }
    u.upTo(6);
    str(6, t.denotation);
    if (member > 6) {
      u.upTo(member);
      s_.message(member, [&] { typeMember(t); });
    }
    u.rest();
  }

  void typeMember(const Type& t) {
    Unknown u(s_, t.member_unknown);
    switch (t.kind) {
      case Type::Kind::kTensor:
      case Type::Kind::kSparseTensor:
        u.upTo(1);
        i32(1, t.elem_type);
        u.upTo(2);
        if (t.shape) s_.message(2, [&] { shape(*t.shape); });
        break;
      case Type::Kind::kSequence:
      case Type::Kind::kOptional:
        u.upTo(1);
        if (t.elem) s_.message(1, [&] { type(*t.elem); });
        break;
      case Type::Kind::kMap:
        u.upTo(1);
        i32(1, t.key_type);
        u.upTo(2);
        if (t.elem) s_.message(2, [&] { type(*t.elem); });
        break;
      case Type::Kind::kOpaque:
        u.upTo(1);
        str(1, t.opaque_domain);
        u.upTo(2);
        str(2, t.opaque_name);
        break;
      case Type::Kind::kNone: break;
    }
    u.rest();
  }

  void shape(const TensorShape& sh) {
    Unknown u(s_, sh.unknown);
    u.upTo(1);
    for (const Dimension& d : sh.dims) s_.message(1, [&] { dimension(d); });
    u.rest();
  }

  void dimension(const Dimension& d) {
    Unknown u(s_, d.unknown);
    u.upTo(1);
    i64(1, d.dim_value);
    u.upTo(2);
    str(2, d.dim_param);
    u.upTo(3);
    str(3, d.denotation);
    u.rest();
  }

  void tensor(const Tensor& original) {
    const Tensor& t = replaced(original);
    const TensorRareFields& more = t.rare();
    Unknown u(s_, more.unknown);
    u.upTo(1);
    repeatedInt64(1, t.dims);
    u.upTo(2);
    i32(2, t.data_type);
    u.upTo(3);
    if (more.segment) s_.message(3, [&] { segment(*more.segment); });
    u.upTo(4);
    packed(4, more.float_data, wire::WireType::kFixed32);
    u.upTo(5);
    packed(5, more.int32_data, wire::WireType::kVarint);
    u.upTo(6);
    for (std::string_view text : more.string_data) s_.bytesField(6, text);
    u.upTo(7);
    packed(7, more.int64_data, wire::WireType::kVarint);
    u.upTo(8);
    str(8, t.name);
    u.upTo(9);
    if (more.computed != nullptr && tensorStorage(t) == TensorStorage::kComputed) {
      s_.producedField(9, more.computed->size, [&](uint64_t offset, std::span<std::byte> out) {
        return readRawBytes(t, offset, out);
      });
    } else {
      str(9, t.raw_data);
    }
    u.upTo(10);
    packed(10, more.double_data, wire::WireType::kFixed64);
    u.upTo(11);
    packed(11, more.uint64_data, wire::WireType::kVarint);
    u.upTo(12);
    str(12, more.doc_string);
    u.upTo(13);
    entries(13, more.external_data);
    u.upTo(14);
    i32(14, t.data_location);
    u.upTo(16);
    entries(16, more.metadata_props);
    u.rest();
  }

  void segment(const TensorSegment& seg) {
    Unknown u(s_, seg.unknown);
    u.upTo(1);
    i64(1, seg.begin);
    u.upTo(2);
    i64(2, seg.end);
    u.rest();
  }

  void sparseTensor(const SparseTensor& t) {
    Unknown u(s_, t.unknown);
    u.upTo(1);
    if (t.values) s_.message(1, [&] { tensor(*t.values); });
    u.upTo(2);
    if (t.indices) s_.message(2, [&] { tensor(*t.indices); });
    u.upTo(3);
    repeatedInt64(3, t.dims);
    u.rest();
  }

  void function(const Function& f) {
    Unknown u(s_, f.unknown);
    u.upTo(1);
    str(1, f.name);
    u.upTo(4);
    for (const Value* v : f.inputs) s_.bytesField(4, v ? v->name() : "");
    u.upTo(5);
    for (const Use* use : f.outputs) s_.bytesField(5, use->value() ? use->value()->name() : "");
    u.upTo(6);
    for (std::string_view name : f.attribute) s_.bytesField(6, name);
    u.upTo(7);
    if (f.body) {
      for (const Node* n = f.body->firstNode(); n != nullptr; n = n->next()) {
        s_.message(7, [&] { node(*n); });
      }
    }
    u.upTo(8);
    str(8, f.doc_string);
    u.upTo(9);
    for (const OperatorSetId& opset : f.opset_import) s_.message(9, [&] { opsetId(opset); });
    u.upTo(10);
    str(10, f.domain);
    u.upTo(11);
    for (const Attribute* a : f.attribute_proto) s_.message(11, [&] { attribute(*a); });
    u.upTo(12);
    if (f.body) {
      for (const ValueInfo* v : f.body->value_info) {
        if (!v->isRemoved()) s_.message(12, [&] { valueInfo(*v); });
      }
    }
    u.upTo(13);
    str(13, f.overload);
    u.upTo(14);
    entries(14, f.metadata_props);
    u.rest();
  }

  void opsetId(const OperatorSetId& o) {
    Unknown u(s_, o.unknown);
    u.upTo(1);
    str(1, o.domain);
    u.upTo(2);
    i64(2, o.version);
    u.rest();
  }

  void entry(const StringStringEntry& e) {
    Unknown u(s_, e.unknown);
    u.upTo(1);
    str(1, e.key);
    u.upTo(2);
    str(2, e.value);
    u.rest();
  }

  void trainingInfo(const TrainingInfo& t) {
    Unknown u(s_, t.unknown);
    u.upTo(1);
    if (t.initialization) s_.message(1, [&] { graph(*t.initialization); });
    u.upTo(2);
    if (t.algorithm) s_.message(2, [&] { graph(*t.algorithm); });
    u.upTo(3);
    entries(3, t.initialization_binding);
    u.upTo(4);
    entries(4, t.update_binding);
    u.rest();
  }

  void annotation(const TensorAnnotation& a) {
    Unknown u(s_, a.unknown);
    u.upTo(1);
    str(1, a.tensor_name);
    u.upTo(2);
    entries(2, a.quant_parameter_tensor_names);
    u.rest();
  }

  void deviceConfiguration(const DeviceConfiguration& c) {
    Unknown u(s_, c.unknown);
    u.upTo(1);
    str(1, c.name);
    u.upTo(2);
    i32(2, c.num_devices);
    u.upTo(3);
    for (std::string_view d : c.device) s_.bytesField(3, d);
    u.rest();
  }

  void nodeDeviceConfiguration(const NodeDeviceConfiguration& c) {
    Unknown u(s_, c.unknown);
    u.upTo(1);
    str(1, c.configuration_id);
    u.upTo(2);
    for (const ShardingSpec* spec : c.sharding_spec) s_.message(2, [&] { shardingSpec(*spec); });
    u.upTo(3);
    i32(3, c.pipeline_stage);
    u.rest();
  }

  void shardingSpec(const ShardingSpec& spec) {
    Unknown u(s_, spec.unknown);
    u.upTo(1);
    str(1, spec.tensor_name);
    u.upTo(2);
    repeatedInt64(2, spec.device);
    u.upTo(3);
    for (const IntIntListEntry* e : spec.index_to_device_group_map) {
      s_.message(3, [&] { intIntListEntry(*e); });
    }
    u.upTo(4);
    for (const ShardedDim* d : spec.sharded_dim) s_.message(4, [&] { shardedDim(*d); });
    u.rest();
  }

  void intIntListEntry(const IntIntListEntry& e) {
    Unknown u(s_, e.unknown);
    u.upTo(1);
    i64(1, e.key);
    u.upTo(2);
    repeatedInt64(2, e.value);
    u.rest();
  }

  void shardedDim(const ShardedDim& d) {
    Unknown u(s_, d.unknown);
    u.upTo(1);
    i64(1, d.axis);
    u.upTo(2);
    for (const SimpleShardedDim* s : d.simple_sharding)
      s_.message(2, [&] { simpleShardedDim(*s); });
    u.rest();
  }

  void simpleShardedDim(const SimpleShardedDim& d) {
    Unknown u(s_, d.unknown);
    u.upTo(1);
    i64(1, d.dim_value);
    u.upTo(2);
    str(2, d.dim_param);
    u.upTo(3);
    i64(3, d.num_shards);
    u.rest();
  }

  // ---- fields ---------------------------------------------------------------------------

  void str(uint32_t field, const OptString& text) {
    if (text.has_value()) s_.bytesField(field, *text);
  }
  void i64(uint32_t field, const std::optional<int64_t>& value) {
    if (!value) return;
    s_.tag(field, wire::WireType::kVarint);
    s_.varint(static_cast<uint64_t>(*value));
  }
  void i32(uint32_t field, const std::optional<int32_t>& value) {
    if (!value) return;
    s_.tag(field, wire::WireType::kVarint);
    // Negative int32 values are sign-extended to ten bytes, as protobuf writes them.
    s_.varint(static_cast<uint64_t>(static_cast<int64_t>(*value)));
  }
  void f32(uint32_t field, const std::optional<float>& value) {
    if (!value) return;
    uint32_t bits;
    std::memcpy(&bits, &*value, 4);
    s_.tag(field, wire::WireType::kFixed32);
    s_.fixed32(bits);
  }
  void entries(uint32_t field, const ArenaList<StringStringEntry>& list) {
    for (const StringStringEntry& e : list) s_.message(field, [&] { entry(e); });
  }
  void repeatedInt64(uint32_t field, const Repeated<int64_t>& list) {
    if (list.empty()) return;
    if (list.packed) {
      uint64_t payload = 0;
      for (int64_t v : list)
        payload += static_cast<uint64_t>(wire::varintSize(static_cast<uint64_t>(v)));
      s_.packedHeader(field, payload);
      for (int64_t v : list) s_.varint(static_cast<uint64_t>(v));
    } else {
      for (int64_t v : list) {
        s_.tag(field, wire::WireType::kVarint);
        s_.varint(static_cast<uint64_t>(v));
      }
    }
  }
  void repeatedFloat(uint32_t field, const Repeated<float>& list) {
    if (list.empty()) return;
    if (list.packed) {
      s_.packedHeader(field, 4 * static_cast<uint64_t>(list.size()));
      for (float v : list) f32bits(v);
    } else {
      for (float v : list) {
        s_.tag(field, wire::WireType::kFixed32);
        f32bits(v);
      }
    }
  }
  void packed(uint32_t field, const PackedData& data, wire::WireType element) {
    if (!data.present) return;
    if (data.packed) {
      s_.packedHeader(field, data.payload.size());
      s_.raw(data.payload);
      return;
    }
    // One key per element, each element's bytes exactly as they were read.
    const char* p = data.payload.data();
    const char* end = p + data.payload.size();
    while (p < end) {
      const char* start = p;
      if (element == wire::WireType::kVarint) {
        uint64_t ignored;
        p = wire::decodeVarintUnchecked(p, ignored);
      } else {
        p += element == wire::WireType::kFixed32 ? 4 : 8;
      }
      s_.tag(field, element);
      s_.raw(std::string_view(start, static_cast<size_t>(p - start)));
    }
  }

  // Emits a message's unknown fields among its known ones, by field number.
  class Unknown {
   public:
    Unknown(Sink& sink, const UnknownFields& fields) : sink_(sink), fields_(fields) {}
    void upTo(uint32_t field) {
      while (next_ < fields_.size() && fields_[next_].number < field) {
        sink_.raw(fields_[next_++].encoded);
      }
    }
    void rest() { upTo(UINT32_MAX); }

   private:
    Sink& sink_;
    const UnknownFields& fields_;
    size_t next_ = 0;
  };

 private:
  void f32bits(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    s_.fixed32(bits);
  }
  const Tensor& replaced(const Tensor& t) const {
    if (replacements_ == nullptr) return t;
    auto it = replacements_->find(&t);
    return it == replacements_->end() ? t : *it->second;
  }

  Sink& s_;
  const TensorReplacements* replacements_;
};

}  // namespace onyx::serde
