// onyx_make_fuzz_seeds — writes the seed corpus for the model fuzz targets.
//
//   onyx_make_fuzz_seeds <conformance-node-dir> <output-dir>
//
// Copies every <conformance-node-dir>/*/model.onnx into <output-dir> (the conformance
// models stay outside the repository; they are read here, when the corpus is made), then
// adds hand-built models for what the conformance set lacks: functions, training_info,
// sparse initializers, device configurations, every TypeProto member, unknown fields of
// every wire type, packed and unpacked repeated fields, external data references and a few
// encodings that are legal but unusual. The hand-built models are written field by field
// in wire format, so that each seed holds exactly the bytes it is meant to.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onyx/serde/model_io.h"

namespace onyx::seeds {
namespace {

namespace fs = std::filesystem;

// ---- a wire-format builder ----------------------------------------------------------------

enum Wire : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kBytes = 2,
  kGroupStart = 3,
  kGroupEnd = 4,
  kFixed32 = 5
};

void putVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

class Msg {
 public:
  Msg& key(uint32_t field, Wire wire) {
    putVarint(bytes_, (static_cast<uint64_t>(field) << 3) | wire);
    return *this;
  }
  Msg& u64(uint32_t field, uint64_t value) {
    key(field, kVarint);
    putVarint(bytes_, value);
    return *this;
  }
  Msg& i64(uint32_t field, int64_t value) { return u64(field, static_cast<uint64_t>(value)); }
  /// int32 and enum fields: negative values are sign-extended to ten bytes.
  Msg& i32(uint32_t field, int32_t value) { return i64(field, value); }
  Msg& fixed32(uint32_t field, uint32_t value) {
    key(field, kFixed32);
    char raw[4];
    std::memcpy(raw, &value, 4);
    bytes_.append(raw, 4);
    return *this;
  }
  Msg& fixed64(uint32_t field, uint64_t value) {
    key(field, kFixed64);
    char raw[8];
    std::memcpy(raw, &value, 8);
    bytes_.append(raw, 8);
    return *this;
  }
  Msg& f32(uint32_t field, float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return fixed32(field, bits);
  }
  Msg& f64(uint32_t field, double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    return fixed64(field, bits);
  }
  Msg& str(uint32_t field, std::string_view text) {
    key(field, kBytes);
    putVarint(bytes_, text.size());
    bytes_.append(text);
    return *this;
  }
  Msg& msg(uint32_t field, const Msg& inner) { return str(field, inner.bytes_); }
  Msg& group(uint32_t field, const Msg& inner) {
    key(field, kGroupStart);
    bytes_.append(inner.bytes_);
    return key(field, kGroupEnd);
  }
  Msg& packedVarints(uint32_t field, std::initializer_list<int64_t> values) {
    std::string payload;
    for (int64_t v : values) putVarint(payload, static_cast<uint64_t>(v));
    return str(field, payload);
  }
  Msg& packedFloats(uint32_t field, std::initializer_list<float> values) {
    std::string payload;
    for (float v : values) payload.append(reinterpret_cast<const char*>(&v), 4);
    return str(field, payload);
  }
  Msg& packedDoubles(uint32_t field, std::initializer_list<double> values) {
    std::string payload;
    for (double v : values) payload.append(reinterpret_cast<const char*>(&v), 8);
    return str(field, payload);
  }
  Msg& unpackedVarints(uint32_t field, std::initializer_list<int64_t> values) {
    for (int64_t v : values) i64(field, v);
    return *this;
  }
  /// Bytes as they are (for encodings the helpers above would not produce).
  Msg& raw(std::string_view bytes) {
    bytes_.append(bytes);
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

// ---- ONNX pieces (field numbers from onnx.proto) ------------------------------------------

enum DataType : int32_t {
  kFloat = 1,
  kUint8 = 2,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kDouble = 11,
  kUint64 = 13
};

Msg opset(std::string_view domain, int64_t version) { return Msg().str(1, domain).i64(2, version); }
Msg entry(std::string_view key, std::string_view value) { return Msg().str(1, key).str(2, value); }

Msg dimValue(int64_t value) { return Msg().i64(1, value); }
Msg dimParam(std::string_view name) { return Msg().str(2, name); }
Msg shape(std::initializer_list<Msg> dims) {
  Msg s;
  for (const Msg& d : dims) s.msg(1, d);
  return s;
}
Msg tensorType(int32_t elem, const Msg& shp) {
  return Msg().msg(1, Msg().i32(1, elem).msg(2, shp));
}
Msg valueInfo(std::string_view name, const Msg& type) { return Msg().str(1, name).msg(2, type); }

Msg node(std::string_view op, std::initializer_list<std::string_view> inputs,
         std::initializer_list<std::string_view> outputs, std::string_view name = "") {
  Msg n;
  for (std::string_view in : inputs) n.str(1, in);
  for (std::string_view out : outputs) n.str(2, out);
  if (!name.empty()) n.str(3, name);
  n.str(4, op);
  return n;
}

Msg floatTensor(std::string_view name, std::initializer_list<int64_t> dims,
                std::initializer_list<float> values) {
  Msg t;
  t.packedVarints(1, dims).i32(2, kFloat).packedFloats(4, values).str(8, name);
  return t;
}

Msg model(const Msg& graph, int64_t ir_version = 10, int64_t opset_version = 21) {
  return Msg()
      .i64(1, ir_version)
      .str(2, "onyx-seeds")
      .str(3, "1")
      .msg(7, graph)
      .msg(8, opset("", opset_version));
}

// A small graph: y = Relu(x) over [N, 4].
Msg simpleGraph() {
  return Msg()
      .msg(1, node("Relu", {"x"}, {"y"}, "relu"))
      .str(2, "simple")
      .msg(11, valueInfo("x", tensorType(kFloat, shape({dimParam("N"), dimValue(4)}))))
      .msg(12, valueInfo("y", tensorType(kFloat, shape({dimParam("N"), dimValue(4)}))));
}

// ---- the hand-built seeds -----------------------------------------------------------------

Msg functions() {
  Msg body_node = node("Mul", {"a", "scale"}, {"b"}, "mul");
  Msg constant = node("Constant", {}, {"scale"}, "const");
  constant.msg(5, Msg().str(1, "value_float").str(21, "alpha").i32(20, 1));
  Msg function = Msg()
                     .str(1, "Scale")
                     .str(4, "a")
                     .str(5, "b")
                     .str(6, "alpha")
                     .msg(7, constant)
                     .msg(7, body_node)
                     .str(8, "multiplies by alpha")
                     .msg(9, opset("", 21))
                     .str(10, "custom.domain")
                     .msg(11, Msg().str(1, "beta").f32(2, 0.5f).i32(20, 1))
                     .msg(12, valueInfo("b", tensorType(kFloat, shape({dimParam("N")}))))
                     .str(13, "v2")
                     .msg(14, entry("author", "seeds"));
  Msg call = node("Scale", {"x"}, {"y"}, "call");
  call.str(7, "custom.domain").str(8, "v2");
  call.msg(5, Msg().str(1, "alpha").f32(2, 2.0f).i32(20, 1));
  Msg graph = Msg()
                  .msg(1, call)
                  .str(2, "uses_function")
                  .msg(11, valueInfo("x", tensorType(kFloat, shape({dimParam("N")}))))
                  .msg(12, valueInfo("y", tensorType(kFloat, shape({dimParam("N")}))));
  return model(graph).msg(8, opset("custom.domain", 1)).msg(25, function);
}

Msg trainingInfo() {
  Msg init = Msg()
                 .msg(1, node("Constant", {}, {"w_init"}, "init"))
                 .str(2, "initialization")
                 .msg(12, valueInfo("w_init", tensorType(kFloat, shape({dimValue(4)}))));
  Msg algo = Msg()
                 .msg(1, node("Sub", {"w", "grad"}, {"w_new"}, "step"))
                 .str(2, "algorithm")
                 .msg(5, floatTensor("grad", {4}, {0.1f, 0.2f, 0.3f, 0.4f}))
                 .msg(12, valueInfo("w_new", tensorType(kFloat, shape({dimValue(4)}))));
  Msg info =
      Msg().msg(1, init).msg(2, algo).msg(3, entry("w", "w_init")).msg(4, entry("w", "w_new"));
  Msg graph = simpleGraph();
  graph.msg(5, floatTensor("w", {4}, {1, 2, 3, 4}));
  return model(graph).msg(20, info).msg(20, Msg().msg(2, Msg().str(2, "second")));
}

Msg sparseTensor(std::string_view name) {
  Msg values = Msg().packedVarints(1, {3}).i32(2, kFloat).packedFloats(4, {1, 2, 3}).str(8, name);
  Msg indices = Msg().packedVarints(1, {3}).i32(2, kInt64).packedVarints(7, {0, 5, 9});
  return Msg().msg(1, values).msg(2, indices).packedVarints(3, {10});
}

Msg sparse() {
  Msg graph = simpleGraph();
  graph.msg(15, sparseTensor("sparse_w"));
  // Unpacked dims, and 2-D COO indices.
  Msg values = Msg().unpackedVarints(1, {2}).i32(2, kFloat).packedFloats(4, {7, 8}).str(8, "sp2");
  Msg indices = Msg().packedVarints(1, {2, 2}).i32(2, kInt64).packedVarints(7, {0, 1, 2, 3});
  graph.msg(15, Msg().msg(1, values).msg(2, indices).unpackedVarints(3, {3, 4}));
  Msg attribute_node = node("Constant", {}, {"c"}, "sparse_constant");
  attribute_node.msg(5, Msg().str(1, "sparse_value").i32(20, 11).msg(22, sparseTensor("")));
  attribute_node.msg(5, Msg()
                            .str(1, "sparse_list")
                            .i32(20, 12)
                            .msg(23, sparseTensor("a"))
                            .msg(23, sparseTensor("b")));
  graph.msg(1, attribute_node);
  graph.msg(13, valueInfo("c", Msg().msg(8, Msg().i32(1, kFloat).msg(2, shape({dimValue(10)})))));
  return model(graph);
}

Msg devices() {
  Msg simple_value = Msg().i64(1, 16).i64(3, 2);
  Msg simple_param = Msg().str(2, "batch").i64(3, 4);
  Msg sharded = Msg().i64(1, 0).msg(2, simple_value).msg(2, simple_param);
  Msg group_map = Msg().i64(1, 0).packedVarints(2, {0, 1});
  Msg group_map_unpacked = Msg().i64(1, 1).unpackedVarints(2, {2, 3});
  Msg spec = Msg()
                 .str(1, "x")
                 .packedVarints(2, {0, 1, 2, 3})
                 .msg(3, group_map)
                 .msg(3, group_map_unpacked)
                 .msg(4, sharded);
  Msg spec_unpacked = Msg().str(1, "y").unpackedVarints(2, {0, 1});
  Msg node_config = Msg().str(1, "mesh").msg(2, spec).msg(2, spec_unpacked).i32(3, 1);
  Msg relu = node("Relu", {"x"}, {"y"}, "relu");
  relu.msg(10, node_config);
  relu.msg(9, entry("placement", "stage1"));
  Msg graph = Msg()
                  .msg(1, relu)
                  .str(2, "sharded")
                  .msg(11, valueInfo("x", tensorType(kFloat, shape({dimValue(16), dimValue(4)}))))
                  .msg(12, valueInfo("y", tensorType(kFloat, shape({dimValue(16), dimValue(4)}))));
  Msg config = Msg()
                   .str(1, "mesh")
                   .i32(2, 4)
                   .str(3, "gpu:0")
                   .str(3, "gpu:1")
                   .str(3, "gpu:2")
                   .str(3, "gpu:3");
  return model(graph, 11, 22).msg(26, config).msg(26, Msg().str(1, "empty"));
}

// Unknown fields of every wire type, in every position: before, between and after known
// fields, with numbers small and large, and a group holding a nested group.
Msg unknowns(Msg m) {
  Msg nested = Msg().u64(1, 7).group(2, Msg().str(3, "deep")).fixed32(4, 9);
  return m.u64(100, 1)
      .fixed64(101, 0x0102030405060708ull)
      .fixed32(102, 0xdeadbeef)
      .str(103, "opaque bytes")
      .group(104, nested)
      .u64((1u << 29) - 1, UINT64_MAX);
}

Msg unknownFields() {
  Msg typed = tensorType(kFloat, shape({unknowns(dimValue(4))}));
  Msg info = unknowns(valueInfo("x", typed));
  Msg relu = unknowns(node("Relu", {"x"}, {"y"}, "relu"));
  relu.msg(5, unknowns(Msg().str(1, "alpha").f32(2, 1.0f).i32(20, 1)));
  Msg graph = Msg()
                  .u64(3, 99)
                  .msg(1, relu)
                  .str(2, "unknowns")
                  .msg(11, info)
                  .msg(12, valueInfo("y", tensorType(kFloat, shape({dimValue(4)}))));
  graph.msg(5, unknowns(floatTensor("w", {2}, {1, 2})));
  graph.u64(9, 5);  // a retired GraphProto field number: unknown today
  Msg m = Msg().u64(9, 1).str(15, "between").i64(1, 10).u64(1000, 3).msg(7, unknowns(graph));
  m.msg(8, unknowns(opset("", 21)));
  m.msg(14, unknowns(entry("k", "v")));
  // An unknown field first of all, and one after everything.
  return unknowns(Msg().u64(30, 30).raw(m.bytes()));
}

Msg repeatedEncodings() {
  Msg packed_tensor = Msg()
                          .packedVarints(1, {2, 3})
                          .i32(2, kInt32)
                          .packedVarints(5, {1, -1, 300, INT32_MAX, INT32_MIN, 0})
                          .str(8, "int32_packed");
  Msg unpacked_tensor = Msg()
                            .unpackedVarints(1, {2, 3})
                            .i32(2, kInt32)
                            .unpackedVarints(5, {1, -1, 300, INT32_MAX, INT32_MIN, 0})
                            .str(8, "int32_unpacked");
  Msg floats_unpacked = Msg().unpackedVarints(1, {3}).i32(2, kFloat).str(8, "float_unpacked");
  floats_unpacked.f32(4, 1.5f).f32(4, -0.0f).f32(4, 3.25f);
  Msg doubles = Msg()
                    .packedVarints(1, {2})
                    .i32(2, kDouble)
                    .packedDoubles(10, {1e300, -2.5})
                    .str(8, "double_packed");
  Msg doubles_unpacked = Msg().packedVarints(1, {2}).i32(2, kDouble).str(8, "double_unpacked");
  doubles_unpacked.f64(10, 0.125).f64(10, -1e-300);
  Msg int64s = Msg()
                   .packedVarints(1, {3})
                   .i32(2, kInt64)
                   .packedVarints(7, {INT64_MIN, -1, INT64_MAX})
                   .str(8, "int64_packed");
  Msg int64s_mixed = Msg().packedVarints(1, {4}).i32(2, kInt64).str(8, "int64_mixed");
  int64s_mixed.packedVarints(7, {1, 2}).i64(7, 3).packedVarints(7, {4});
  Msg uint64s =
      Msg().packedVarints(1, {2}).i32(2, kUint64).packedVarints(11, {-1, 1}).str(8, "uint64");
  Msg uint64s_unpacked = Msg()
                             .packedVarints(1, {2})
                             .i32(2, kUint64)
                             .unpackedVarints(11, {5, 6})
                             .str(8, "uint64_unpacked");
  Msg strings =
      Msg().packedVarints(1, {2}).i32(2, kString).str(6, "a").str(6, "").str(8, "strings");
  Msg raw = Msg().packedVarints(1, {4}).i32(2, kUint8).str(8, "raw").str(
      9, std::string("\x00\x01\xfe\xff", 4));
  Msg empty_dims = Msg().str(1, "").i32(2, kFloat).str(8, "scalar_empty_packed_dims").f32(4, 2.0f);

  Msg attrs = node("Custom", {"x"}, {"y"}, "attributes");
  attrs.str(7, "custom.domain");
  attrs.msg(5, Msg().str(1, "ints_packed").packedVarints(8, {1, -2, 3}).i32(20, 7));
  attrs.msg(5, Msg().str(1, "ints_unpacked").unpackedVarints(8, {1, -2, 3}).i32(20, 7));
  attrs.msg(5, Msg().str(1, "floats_packed").packedFloats(7, {0.5f, -1.0f}).i32(20, 6));
  Msg floats_one_by_one = Msg().str(1, "floats_unpacked").i32(20, 6);
  floats_one_by_one.f32(7, 0.5f).f32(7, -1.0f);
  attrs.msg(5, floats_one_by_one);
  attrs.msg(5, Msg().str(1, "strings").str(9, "one").str(9, "two").i32(20, 8));

  Msg graph = Msg().msg(1, attrs).str(2, "encodings");
  for (const Msg* t :
       {&packed_tensor, &unpacked_tensor, &floats_unpacked, &doubles, &doubles_unpacked, &int64s,
        &int64s_mixed, &uint64s, &uint64s_unpacked, &strings, &raw, &empty_dims}) {
    graph.msg(5, *t);
  }
  graph.msg(11, valueInfo("x", tensorType(kFloat, shape({}))));
  graph.msg(12, valueInfo("y", tensorType(kFloat, shape({}))));
  return model(graph).msg(8, opset("custom.domain", 1));
}

Msg externalData() {
  Msg external = Msg()
                     .packedVarints(1, {1024})
                     .i32(2, kFloat)
                     .str(8, "w_external")
                     .msg(13, entry("location", "weights.bin"))
                     .msg(13, entry("offset", "4096"))
                     .msg(13, entry("length", "4096"))
                     .msg(13, entry("checksum", "0123456789abcdef"))
                     .i32(14, 1);
  Msg default_location = floatTensor("w_inline", {2}, {1, 2});
  default_location.i32(14, 0);
  Msg odd_location = floatTensor("w_odd_location", {1}, {1});
  odd_location.i32(14, 7);  // not a DataLocation value: libprotobuf keeps it as unknown
  Msg segmented = floatTensor("w_segment", {2}, {1, 2});
  segmented.msg(3, Msg().i64(1, 0).i64(2, 2));
  Msg graph = simpleGraph();
  graph.msg(5, external).msg(5, default_location).msg(5, odd_location).msg(5, segmented);
  return model(graph);
}

// Every TypeProto member, nested, with denotations.
Msg types() {
  Msg tensor = tensorType(kFloat, shape({dimValue(1), dimParam("seq"), Msg().str(3, "CHANNEL")}));
  tensor.str(6, "IMAGE");
  Msg sequence = Msg().msg(4, Msg().msg(1, tensor));
  Msg map = Msg().msg(5, Msg().i32(1, kInt64).msg(2, sequence));
  Msg optional = Msg().msg(9, Msg().msg(1, map));
  Msg sparse_type = Msg().msg(8, Msg().i32(1, kFloat).msg(2, shape({dimValue(100)})));
  Msg opaque = Msg().msg(7, Msg().str(1, "com.example").str(2, "Handle"));
  Msg no_shape = Msg().msg(1, Msg().i32(1, kFloat));
  Msg empty_member = Msg().msg(4, Msg());
  // Two members in a row: the oneof keeps the last.
  Msg replaced = Msg().msg(1, Msg().i32(1, kFloat)).msg(4, Msg().msg(1, no_shape));
  // The same member twice: the two merge.
  Msg merged = Msg().msg(1, Msg().i32(1, kFloat)).msg(1, Msg().msg(2, shape({dimValue(3)})));
  // A dimension whose oneof changes from value to parameter.
  Msg dim_switch = tensorType(kFloat, shape({Msg().i64(1, 5).str(2, "later")}));

  Msg attrs = node("Custom", {}, {"out"}, "type_attributes");
  attrs.str(7, "custom.domain");
  attrs.msg(5, Msg().str(1, "tp").i32(20, 13).msg(14, optional));
  attrs.msg(5,
            Msg().str(1, "tps").i32(20, 14).msg(15, tensor).msg(15, opaque).msg(15, sparse_type));

  Msg graph = Msg().msg(1, attrs).str(2, "types");
  int i = 0;
  for (const Msg* t : {&tensor, &sequence, &map, &optional, &sparse_type, &opaque, &no_shape,
                       &empty_member, &replaced, &merged, &dim_switch}) {
    graph.msg(13, valueInfo("v" + std::to_string(i++), *t));
  }
  graph.msg(12, valueInfo("out", optional));
  return model(graph).msg(8, opset("custom.domain", 1));
}

// Subgraphs in If and Loop that read outer names, a graph list, an attribute reference.
Msg subgraphs() {
  Msg then_branch = Msg()
                        .msg(1, node("Add", {"x", "outer"}, {"t"}, "then_add"))
                        .str(2, "then")
                        .msg(12, valueInfo("t", tensorType(kFloat, shape({dimValue(4)}))));
  Msg else_branch = Msg()
                        .msg(1, node("Identity", {"outer"}, {"e"}, "else_id"))
                        .str(2, "else")
                        .msg(12, valueInfo("e", tensorType(kFloat, shape({dimValue(4)}))));
  Msg if_node = node("If", {"cond"}, {"r"}, "if");
  if_node.msg(5, Msg().str(1, "then_branch").msg(6, then_branch).i32(20, 5));
  if_node.msg(5, Msg().str(1, "else_branch").msg(6, else_branch).i32(20, 5));
  Msg inner_loop = Msg()
                       .msg(1, node("Identity", {"r"}, {"r_out"}, "loop_body"))
                       .msg(11, valueInfo("i", tensorType(kInt64, shape({}))))
                       .msg(12, valueInfo("r_out", tensorType(kFloat, shape({dimValue(4)}))));
  Msg loop = node("Loop", {"", ""}, {"loop_out"}, "loop");
  loop.msg(5, Msg().str(1, "body").msg(6, inner_loop).i32(20, 5));
  Msg graphs_attr = node("Custom", {}, {"g_out"}, "graph_list");
  graphs_attr.str(7, "custom.domain");
  graphs_attr.msg(5,
                  Msg().str(1, "branches").msg(11, then_branch).msg(11, else_branch).i32(20, 10));
  graphs_attr.msg(5, Msg().str(1, "ref").str(21, "parent_attr").i32(20, 2));
  Msg graph = Msg()
                  .msg(1, node("Relu", {"x"}, {"outer"}, "outer_relu"))
                  .msg(1, if_node)
                  .msg(1, loop)
                  .msg(1, graphs_attr)
                  .str(2, "nested")
                  .msg(11, valueInfo("x", tensorType(kFloat, shape({dimValue(4)}))))
                  .msg(11, valueInfo("cond", tensorType(9, shape({}))))
                  .msg(12, valueInfo("r", tensorType(kFloat, shape({dimValue(4)}))))
                  .msg(13, valueInfo("outer", tensorType(kFloat, shape({dimValue(4)}))))
                  .msg(14, Msg().str(1, "outer").msg(2, entry("SCALE_TENSOR", "s")))
                  .msg(16, entry("graph_key", "graph_value"))
                  .str(10, "a graph with subgraphs");
  graph.msg(5, floatTensor("s", {}, {0.5f}));
  return model(graph).msg(8, opset("custom.domain", 1)).msg(14, entry("model_key", "v"));
}

// Every attribute value kind, values at the edges of their types.
Msg attributes() {
  Msg n = node("Custom", {"x"}, {"y"}, "all_attributes");
  n.str(7, "custom.domain").str(6, "doc");
  n.msg(5, Msg().str(1, "f").f32(2, -0.0f).i32(20, 1));
  n.msg(5, Msg().str(1, "nan").fixed32(2, 0x7fc00001).i32(20, 1));
  n.msg(5, Msg().str(1, "i").i64(3, INT64_MIN).i32(20, 2));
  n.msg(5, Msg().str(1, "s").str(4, std::string("bytes\xff\x00", 7)).i32(20, 3).str(13, "doc"));
  n.msg(5, Msg().str(1, "t").msg(5, floatTensor("", {2}, {1, 2})).i32(20, 4));
  n.msg(5, Msg().str(1, "g").msg(6, simpleGraph()).i32(20, 5));
  n.msg(5, Msg().str(1, "tensors").msg(10, floatTensor("a", {1}, {1})).msg(10, Msg()).i32(20, 9));
  n.msg(5, Msg().str(1, "no_type"));
  n.msg(5, Msg().str(1, "odd_type").i32(20, 99));  // not an AttributeType value
  n.msg(5, Msg().str(1, "neg_type").i32(20, -3));  // negative, ten bytes on the wire
  n.msg(5, Msg().str(1, "twice").i64(3, 1).i64(3, 2).i32(20, 2));  // the last value wins
  Msg graph = Msg()
                  .msg(1, n)
                  .str(2, "attributes")
                  .msg(11, valueInfo("x", tensorType(kFloat, shape({dimValue(2)}))))
                  .msg(12, valueInfo("y", tensorType(kFloat, shape({dimValue(2)}))));
  return model(graph).msg(8, opset("custom.domain", 1));
}

// Legal but unusual encodings: over-long varints, a message field sent twice (merged),
// a singular scalar sent twice (last wins), empty strings present, an empty model.
Msg unusual() {
  Msg m;
  m.key(1, kVarint).raw(std::string("\x8a\x80\x80\x80\x00", 5));  // ir_version 10, 5 bytes
  m.str(2, "");
  m.i64(5, 1).i64(5, -1);
  m.msg(7, Msg().msg(1, node("Relu", {"x"}, {"y"})).str(2, "first"));
  m.msg(7, Msg().str(2, "second").msg(11, valueInfo("x", tensorType(kFloat, shape({})))));
  m.msg(8, opset("", 21));
  m.msg(8, Msg());
  m.str(6, "");
  return m;
}

Msg deepTypes(int levels) {
  Msg type = tensorType(kFloat, shape({dimValue(1)}));
  for (int i = 0; i < levels; ++i) type = Msg().msg(4, Msg().msg(1, type));
  Msg graph = Msg().str(2, "deep").msg(13, valueInfo("v", type));
  return model(graph);
}

Msg deepGroups(int levels) {
  Msg group = Msg().u64(1, 1);
  for (int i = 0; i < levels; ++i) group = Msg().group(static_cast<uint32_t>(200 + i % 3), group);
  return model(simpleGraph()).raw(group.bytes());
}

// Metadata at model and graph level, empty entries, non-ASCII text.
Msg metadata() {
  Msg graph = simpleGraph();
  graph.msg(16, entry("", ""));
  Msg m = model(graph);
  m.str(4, "ai.onyx").i64(5, 3).str(6, "doc string");
  m.msg(14, entry("key", "value")).msg(14, entry("utf8 \xc3\xa9", "\xe2\x82\xac"));
  return m;
}

// ---- files --------------------------------------------------------------------------------

bool writeFile(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

size_t copyConformance(const fs::path& from, const fs::path& to) {
  std::error_code error;
  if (!fs::is_directory(from, error)) {
    std::fprintf(stderr,
                 "onyx_make_fuzz_seeds: no conformance cases at %s; hand-built seeds only\n",
                 from.c_str());
    return 0;
  }
  std::vector<fs::path> cases;
  for (const fs::directory_entry& item : fs::directory_iterator(from, error)) {
    if (fs::is_regular_file(item.path() / "model.onnx", error)) cases.push_back(item.path());
  }
  for (const fs::path& dir : cases) {
    fs::copy_file(dir / "model.onnx", to / ("conformance_" + dir.filename().string() + ".onnx"),
                  fs::copy_options::overwrite_existing, error);
    if (error) {
      std::fprintf(stderr, "onyx_make_fuzz_seeds: cannot copy %s: %s\n", dir.c_str(),
                   error.message().c_str());
      return 0;
    }
  }
  return cases.size();
}

int run(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <conformance-node-dir> <output-dir>\n", argv[0]);
    return 2;
  }
  fs::path out = argv[2];
  std::error_code error;
  fs::create_directories(out, error);
  if (error) {
    std::fprintf(stderr, "onyx_make_fuzz_seeds: cannot create %s: %s\n", out.c_str(),
                 error.message().c_str());
    return 1;
  }
  size_t copied = copyConformance(argv[1], out);

  std::vector<std::pair<std::string, Msg>> built = {
      {"functions", functions()},
      {"training_info", trainingInfo()},
      {"sparse", sparse()},
      {"devices", devices()},
      {"unknown_fields", unknownFields()},
      {"repeated_encodings", repeatedEncodings()},
      {"external_data", externalData()},
      {"types", types()},
      {"subgraphs", subgraphs()},
      {"attributes", attributes()},
      {"unusual", unusual()},
      {"metadata", metadata()},
      {"deep_types_40", deepTypes(40)},
      {"deep_groups_90", deepGroups(90)},
      {"empty", Msg()},
  };
  LoadOptions options;
  options.load_external_data = false;
  int refused = 0;
  for (const auto& [name, seed] : built) {
    if (!writeFile(out / ("built_" + name + ".onnx"), seed.bytes())) {
      std::fprintf(stderr, "onyx_make_fuzz_seeds: cannot write %s\n", name.c_str());
      return 1;
    }
    // Every hand-built seed is meant to be valid: a refusal means the seed is wrong.
    Result<Model> decoded = parseModel(seed.bytes(), nullptr, options);
    if (!decoded) {
      std::fprintf(stderr, "onyx_make_fuzz_seeds: onyx refuses seed %s: %s\n", name.c_str(),
                   decoded.status().toString().c_str());
      ++refused;
    }
  }
  std::printf("%zu conformance models and %zu hand-built models in %s\n", copied, built.size(),
              out.c_str());
  return refused == 0 ? 0 : 1;
}

}  // namespace
}  // namespace onyx::seeds

int main(int argc, char** argv) { return onyx::seeds::run(argc, argv); }
