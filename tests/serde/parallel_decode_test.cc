// A graph decoded on several threads is the graph decoded on one: the same fields, the same
// values in the same order, the same use-list order, the same bindings of value_info
// entries, and for a bad file the same error at the same place.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "onyx/serde/model_io.h"
#include "support/conformance.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::ProtoBuilder;
namespace f = ::onyx::field;

LoadOptions serialOptions() {
  LoadOptions options;
  options.threads = 1;
  return options;
}

LoadOptions parallelOptions(int threads) {
  LoadOptions options;
  options.threads = threads;
  options.parallel_min_bytes = 0;  // every graph, however small
  return options;
}

// Everything about a model's names and links that the wire bytes do not show: the order
// of each graph's values, what each node input, node output, graph output and value_info
// entry is bound to, each value's use list in order and its type declaration.
class BindingDescription {
 public:
  static std::string of(const Model& model) {
    BindingDescription description;
    if (model.graph != nullptr) description.graph(*model.graph, "graph");
    for (size_t i = 0; i < model.functions.size(); ++i) {
      description.graph(*model.functions[i]->body, "function" + std::to_string(i));
    }
    return description.out_.str();
  }

 private:
  void graph(const Graph& graph, const std::string& path) {
    // Ids first, so that a node may refer to a value of an enclosing or nested graph.
    for (size_t i = 0; i < graph.values().size(); ++i) {
      value_ids_[graph.values()[i]] = path + ".value" + std::to_string(i);
    }
    size_t index = 0;
    for (const Node* node = graph.firstNode(); node != nullptr; node = node->next(), ++index) {
      node_ids_[node] = path + ".node" + std::to_string(index);
    }
    for (size_t i = 0; i < graph.value_info.size(); ++i) {
      info_ids_[graph.value_info[i]] = path + ".value_info" + std::to_string(i);
    }
    for (size_t i = 0; i < graph.outputs.size(); ++i) {
      info_ids_[graph.outputs[i]] = path + ".output" + std::to_string(i);
    }
    for (size_t i = 0; i < graph.inputs.size(); ++i) {
      info_ids_[graph.inputs[i]] = path + ".input" + std::to_string(i);
    }
    // The list's links both ways, and each node's graph: workers link the nodes they decode.
    out_ << path << " nodes " << graph.nodeCount() << " last " << id(graph.lastNode()) << '\n';
    index = 0;
    for (const Node* node = graph.firstNode(); node != nullptr; node = node->next(), ++index) {
      out_ << path << ".node" << index << " prev " << id(node->prev())
           << (node->graph() == &graph ? "" : " in another graph") << " in:";
      for (size_t i = 0; i < node->inputCount(); ++i) out_ << ' ' << id(node->input(i));
      out_ << " out:";
      for (size_t i = 0; i < node->outputCount(); ++i) out_ << ' ' << id(node->output(i));
      out_ << '\n';
      size_t sub = 0;
      for (const Attribute* attribute : node->attributes) {
        if (attribute->g != nullptr) {
          this->graph(*attribute->g,
                      path + ".node" + std::to_string(index) + ".g" + std::to_string(sub++));
        }
      }
    }
    for (size_t i = 0; i < graph.values().size(); ++i) {
      const Value* value = graph.values()[i];
      out_ << id(value) << ' ' << value->name() << " producer " << id(value->producer()) << '/'
           << value->outputIndex() << " declared " << id(value->valueInfo()) << " input "
           << id(value->graphInput()) << " initializer " << (value->initializer() != nullptr)
           << " uses:";
      for (const Use& use : value->uses()) {
        out_ << ' ' << (use.user() == nullptr ? std::string("output") : id(use.user())) << '#'
             << (use.user() == nullptr ? 0 : use.index());
      }
      out_ << '\n';
    }
    for (size_t i = 0; i < graph.value_info.size(); ++i) {
      out_ << path << ".value_info" << i << " -> " << id(graph.value_info[i]->value) << '\n';
    }
    for (size_t i = 0; i < graph.outputs.size(); ++i) {
      out_ << path << ".output" << i << " -> " << id(graph.outputs[i]->output.value()) << '\n';
    }
  }

  template <class T>
  std::string id(const T* object) const {
    if (object == nullptr) return "-";
    const auto& ids = idsOf(object);
    auto found = ids.find(object);
    return found == ids.end() ? "?" : found->second;
  }
  const std::map<const void*, std::string>& idsOf(const Value*) const { return value_ids_; }
  const std::map<const void*, std::string>& idsOf(const Node*) const { return node_ids_; }
  const std::map<const void*, std::string>& idsOf(const ValueInfo*) const { return info_ids_; }

  std::map<const void*, std::string> value_ids_;
  std::map<const void*, std::string> node_ids_;
  std::map<const void*, std::string> info_ids_;
  std::ostringstream out_;
};

// The first line where two descriptions differ, rather than both in full.
void expectSameLines(const std::string& got, const std::string& want) {
  std::istringstream got_lines(got);
  std::istringstream want_lines(want);
  std::string got_line;
  std::string want_line;
  for (int line = 1;; ++line) {
    bool more_got = static_cast<bool>(std::getline(got_lines, got_line));
    bool more_want = static_cast<bool>(std::getline(want_lines, want_line));
    if (!more_got && !more_want) return;
    if (more_got != more_want || got_line != want_line) {
      ADD_FAILURE() << "line " << line << "\n  got:  " << got_line << "\n  want: " << want_line;
      return;
    }
  }
}

// Decodes `bytes` on one thread and on 2, 3 and 8, and checks that they agree: the same
// bytes written back and the same bindings, or the same error.
void expectSameOnEveryThreadCount(const std::string& bytes) {
  Result<Model> serial = parseModel(bytes, nullptr, serialOptions());
  std::string serial_bytes;
  std::string serial_bindings;
  if (serial.isOk()) {
    Result<std::string> written = serializeModel(*serial);
    ASSERT_TRUE(written.isOk()) << written.status().toString();
    serial_bytes = *written;
    serial_bindings = BindingDescription::of(*serial);
  }
  for (int threads : {2, 3, 8}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    Result<Model> parallel = parseModel(bytes, nullptr, parallelOptions(threads));
    ASSERT_EQ(parallel.isOk(), serial.isOk())
        << (serial.isOk() ? parallel.status().toString() : serial.status().toString());
    if (!serial.isOk()) {
      EXPECT_EQ(parallel.status().toString(), serial.status().toString());
      continue;
    }
    Result<std::string> written = serializeModel(*parallel);
    ASSERT_TRUE(written.isOk()) << written.status().toString();
    if (*written != serial_bytes) {
      size_t at = 0;
      while (at < written->size() && (*written)[at] == serial_bytes[at]) ++at;
      ADD_FAILURE() << "the models write back differently from byte " << at;
    }
    expectSameLines(BindingDescription::of(*parallel), serial_bindings);
  }
}

ProtoBuilder floatType(int64_t dim) {
  ProtoBuilder shape;
  shape.message(f::shape::kDim, ProtoBuilder().varint(f::shape::kDimValue, dim));
  ProtoBuilder tensor;
  tensor.varint(f::type::kElemType, 1).message(f::type::kShape, shape);
  return ProtoBuilder().message(f::type::kTensorType, tensor);
}

ProtoBuilder valueInfo(const std::string& name, int64_t dim = 4) {
  return ProtoBuilder()
      .bytes(f::value_info::kName, name)
      .message(f::value_info::kType, floatType(dim));
}

ProtoBuilder tensor(const std::string& name, uint64_t dim) {
  ProtoBuilder tensor;
  tensor.varint(f::tensor::kDims, dim)
      .varint(f::tensor::kDataType, 1)
      .bytes(f::tensor::kName, name)
      .bytes(f::tensor::kRawData, std::string(4 * (dim > 64 ? 0 : dim), '\0'));
  return tensor;
}

ProtoBuilder node(std::initializer_list<std::string> inputs,
                  std::initializer_list<std::string> outputs, const std::string& op_type) {
  ProtoBuilder node;
  for (const std::string& input : inputs) node.bytes(f::node::kInput, input);
  for (const std::string& output : outputs) node.bytes(f::node::kOutput, output);
  node.bytes(f::node::kOpType, op_type);
  return node;
}

ProtoBuilder intAttribute(const std::string& name, uint64_t value) {
  return ProtoBuilder()
      .bytes(f::attribute::kName, name)
      .varint(f::attribute::kI, value)
      .varint(f::attribute::kType, 2);
}

// An IR 8, opset 17 model holding `graph`.
std::string modelOf(const ProtoBuilder& graph) {
  ProtoBuilder model;
  model.varint(f::model::kIrVersion, 8)
      .message(f::model::kGraph, graph)
      .message(f::model::kOpsetImport,
               ProtoBuilder().bytes(f::opset::kDomain, "").varint(f::opset::kVersion, 17));
  return model.str();
}

// A graph with everything that binds names, in many small chunks' worth: blocks of nodes
// with attributes, initializers, inputs, outputs and value_info entries between them;
// names defined twice, read before they are defined, read by their own node, left empty,
// never defined; nodes holding subgraphs that read outer names; unknown fields. The first
// node of each block in `faults` is replaced by the bytes given there.
std::string trickyModel(int blocks = 2000, const std::map<int, std::string>& faults = {}) {
  ProtoBuilder graph;
  graph.bytes(f::graph::kName, "tricky");
  graph.message(f::graph::kInput, valueInfo("x"));
  graph.message(f::graph::kValueInfo, valueInfo("b0_out"));  // before its definition
  for (int b = 0; b < blocks; ++b) {
    std::string p = "b" + std::to_string(b);
    std::string prev = b == 0 ? "x" : "b" + std::to_string(b - 1) + "_out";
    if (b % 7 == 0) graph.message(f::graph::kInitializer, tensor(p + "_w", 4));
    std::string weight = "b" + std::to_string(b - b % 7) + "_w";
    ProtoBuilder first = node({prev, weight}, {p + "_a"}, "Mul");
    first.message(f::node::kAttribute, intAttribute("axis", static_cast<uint64_t>(b)));
    first.bytes(f::node::kName, p + "/mul");
    if (auto fault = faults.find(b); fault != faults.end()) {
      graph.bytes(f::graph::kNode, fault->second);
    } else {
      graph.message(f::graph::kNode, first);
    }
    graph.message(f::graph::kNode, node({p + "_a", "", p + "_late"}, {p + "_b", ""}, "Clip"));
    // A graph output between a definition and its reads.
    if (b % 31 == 30) graph.message(f::graph::kOutput, valueInfo(p + "_b"));
    graph.message(f::graph::kNode, node({p + "_b"}, {p + "_late"}, "Relu"));  // read above
    if (b % 19 == 7 && b >= 100) {
      // Names defined long before (another chunk's node output, an initializer) defined
      // again, then read: the reads keep binding to the first definitions.
      std::string old = "b" + std::to_string(b - 100);
      graph.message(f::graph::kNode, node({p + "_b"}, {old + "_b", old + "_w"}, "Split"));
      graph.message(f::graph::kNode, node({old + "_b", old + "_w"}, {p + "_again"}, "Add"));
    }
    if (b % 11 == 3) {
      // A name defined twice: reads keep binding to the first definition.
      graph.message(f::graph::kNode, node({p + "_a"}, {p + "_b"}, "Neg"));
    }
    if (b % 13 == 5) {
      graph.message(f::graph::kNode, node({p + "_self"}, {p + "_self"}, "Identity"));
    }
    if (b % 17 == 2) {
      // A subgraph reading an outer name, a name of its own and one defined later outside.
      ProtoBuilder body;
      body.message(f::graph::kNode, node({p + "_b", p + "_late"}, {p + "_inner"}, "Add"));
      body.message(f::graph::kNode,
                   node({p + "_inner", "b" + std::to_string(b + 1) + "_a"}, {p + "_then"}, "Sub"));
      body.message(f::graph::kOutput, valueInfo(p + "_then"));
      ProtoBuilder attribute;
      attribute.bytes(f::attribute::kName, "then_branch")
          .message(f::attribute::kG, body)
          .varint(f::attribute::kType, 5);
      ProtoBuilder holder = node({p + "_cond"}, {p + "_if"}, "If");
      holder.message(f::node::kAttribute, attribute);
      graph.message(f::graph::kNode, holder);
    }
    graph.message(f::graph::kNode, node({p + "_late", "undefined_" + p}, {p + "_out"}, "Add"));
    if (b % 5 == 1) graph.message(f::graph::kValueInfo, valueInfo(p + "_a"));
    if (b % 9 == 4) graph.message(f::graph::kValueInfo, valueInfo("never_" + p));
    if (b % 23 == 0) graph.varint(99, static_cast<uint64_t>(b));  // an unknown field
    if (b % 31 == 30) graph.message(f::graph::kOutput, valueInfo(p + "_late"));
    if (b % 29 == 28) graph.message(f::graph::kInput, valueInfo(p + "_b"));  // clashes
  }
  graph.message(f::graph::kOutput, valueInfo("b" + std::to_string(blocks - 1) + "_out"));
  graph.message(f::graph::kValueInfo, valueInfo("b1_out"));
  return modelOf(graph);
}

TEST(ParallelDecode, AGraphWithEveryKindOfBindingDecodesTheSameOnAnyThreadCount) {
  std::string bytes = trickyModel();
  ASSERT_GT(bytes.size(), 150u << 10) << "too small for several chunks";
  Result<Model> model = parseModel(bytes, nullptr, parallelOptions(2));
  ASSERT_TRUE(model.isOk()) << model.status().toString();
  EXPECT_GT(model->graph->nodeCount(), 8000u);
  expectSameOnEveryThreadCount(bytes);
}

TEST(ParallelDecode, TheDefaultThresholdKeepsASmallGraphOnOneThreadAndDecodesALargeOneTheSame) {
  // Past 1 MiB the defaults decode ahead; the result is still the serial one.
  std::string bytes = trickyModel(6000);
  ASSERT_GT(bytes.size(), size_t{1} << 20);
  Result<Model> serial = parseModel(bytes, nullptr, serialOptions());
  LoadOptions defaults;
  defaults.threads = 2;  // whatever the machine has
  Result<Model> parallel = parseModel(bytes, nullptr, defaults);
  ASSERT_TRUE(serial.isOk()) << serial.status().toString();
  ASSERT_TRUE(parallel.isOk()) << parallel.status().toString();
  expectSameLines(BindingDescription::of(*parallel), BindingDescription::of(*serial));
}

// Expects `bytes` refused for something in a node, on one thread and on several alike;
// returns the error's path.
std::string expectRefusedAtANode(const std::string& bytes) {
  Result<Model> serial = parseModel(bytes, nullptr, serialOptions());
  EXPECT_FALSE(serial.isOk());
  if (serial.isOk()) return "";
  EXPECT_NE(serial.status().path().find("graph.node["), std::string::npos)
      << serial.status().toString();
  expectSameOnEveryThreadCount(bytes);
  return serial.status().path();
}

TEST(ParallelDecode, AMalformedNodeGivesTheSameErrorAtTheSamePlace) {
  ProtoBuilder cut = node({"a"}, {"b"}, "Relu");
  std::string truncated = cut.str().substr(0, cut.size() - 2);
  for (int block : {0, 1, 900, 1999}) {
    SCOPED_TRACE("block " + std::to_string(block));
    expectRefusedAtANode(trickyModel(2000, {{block, truncated}}));
  }
}

TEST(ParallelDecode, ANameThatIsNotUtf8GivesTheSameError) {
  std::string bytes = trickyModel(2000, {{200, node({"a\xff"}, {"b"}, "Relu").str()}});
  Result<Model> serial = parseModel(bytes, nullptr, serialOptions());
  ASSERT_FALSE(serial.isOk());
  EXPECT_NE(serial.status().message().find("UTF-8"), std::string::npos);
  expectRefusedAtANode(bytes);
}

TEST(ParallelDecode, OfTwoTensorsWithImpossibleDimsTheFirstInTheFileIsNamed) {
  // Decoded by different threads, the tensors are still judged in file order.
  ProtoBuilder huge;
  huge.varint(f::tensor::kDims, uint64_t{1} << 40)
      .varint(f::tensor::kDims, uint64_t{1} << 40)
      .varint(f::tensor::kDataType, 1);
  ProtoBuilder attribute;
  attribute.bytes(f::attribute::kName, "value")
      .message(f::attribute::kT, huge)
      .varint(f::attribute::kType, 4);
  ProtoBuilder constant = node({}, {"c"}, "Constant");
  constant.message(f::node::kAttribute, attribute);
  std::string first_only = expectRefusedAtANode(trickyModel(2000, {{10, constant.str()}}));
  std::string second_only = expectRefusedAtANode(trickyModel(2000, {{1500, constant.str()}}));
  EXPECT_NE(first_only, second_only);
  std::string both =
      expectRefusedAtANode(trickyModel(2000, {{10, constant.str()}, {1500, constant.str()}}));
  EXPECT_EQ(both, first_only);
}

TEST(ParallelDecode, ATensorMetTwiceIsJudgedAtItsLastOccurrenceOnAnyThread) {
  // A singular tensor field given twice merges; the error's place is the second.
  ProtoBuilder huge;
  huge.varint(f::tensor::kDims, uint64_t{1} << 40).varint(f::tensor::kDims, uint64_t{1} << 40);
  ProtoBuilder typed;
  typed.varint(f::tensor::kDataType, 1);
  ProtoBuilder attribute;
  attribute.bytes(f::attribute::kName, "value")
      .message(f::attribute::kT, huge)
      .message(f::attribute::kT, typed)
      .varint(f::attribute::kType, 4);
  ProtoBuilder constant = node({}, {"c"}, "Constant");
  constant.message(f::node::kAttribute, attribute);
  for (int block : {3, 1200}) {
    SCOPED_TRACE("block " + std::to_string(block));
    expectRefusedAtANode(trickyModel(2000, {{block, constant.str()}}));
  }
}

// A chain of `nodes` Relu nodes with an external initializer before every 50th, reading
// the file "w<node>.bin" of the model's folder (4 floats at offset 0).
std::string modelWithExternalWeights(int nodes) {
  ProtoBuilder graph;
  graph.message(f::graph::kInput, valueInfo("v0"));
  for (int i = 0; i < nodes; ++i) {
    std::string at = std::to_string(i);
    if (i % 50 == 0) {
      ProtoBuilder weight;
      weight.varint(f::tensor::kDims, 4)
          .varint(f::tensor::kDataType, 1)
          .bytes(f::tensor::kName, "w" + at)
          .message(f::tensor::kExternalData, ProtoBuilder()
                                                 .bytes(f::entry::kKey, "location")
                                                 .bytes(f::entry::kValue, "w" + at + ".bin"))
          .varint(f::tensor::kDataLocation, f::tensor::kExternal);
      graph.message(f::graph::kInitializer, weight);
    }
    graph.message(f::graph::kNode,
                  node({"v" + at}, {"v" + std::to_string(i + 1)}, "Relu")
                      .bytes(f::node::kName, "relu_" + at + "_with_a_longer_name"));
  }
  graph.message(f::graph::kOutput, valueInfo("v" + std::to_string(nodes)));
  return modelOf(graph);
}

TEST(ParallelDecode, ExternalTensorsDecodedOnAnyThreadAreResolvedInFileOrder) {
  constexpr int kNodes = 6000;
  std::string bytes = modelWithExternalWeights(kNodes);
  std::string pattern = std::filesystem::temp_directory_path() / "onyx-parallel-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
  std::filesystem::path folder = pattern;
  auto write = [&](int node) {
    std::ofstream out(folder / ("w" + std::to_string(node) + ".bin"), std::ios::binary);
    float data[4] = {static_cast<float>(node), 1, 2, 3};
    out.write(reinterpret_cast<const char*>(data), sizeof(data));
  };
  // Two files missing, far apart: the error names the first in the file, whichever thread
  // decoded it.
  for (int node = 0; node < kNodes; node += 50) {
    if (node != 150 && node != 5000) write(node);
  }
  std::string first_error;
  for (int threads : {1, 2, 3, 8}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    Result<Model> model = parseModel(bytes, nullptr, parallelOptions(threads), folder);
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().toString().find("w150"), std::string::npos)
        << model.status().toString();
    if (threads == 1) first_error = model.status().toString();
    EXPECT_EQ(model.status().toString(), first_error);
  }
  write(150);
  write(5000);
  for (int threads : {1, 2, 8}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    Result<Model> model = parseModel(bytes, nullptr, parallelOptions(threads), folder);
    ASSERT_TRUE(model.isOk()) << model.status().toString();
    size_t checked = 0;
    for (const Tensor* weight : model->graph->initializers) {
      ASSERT_TRUE(weight->rare().external_bytes.has_value()) << weight->nameOrEmpty();
      ASSERT_EQ(weight->rare().external_bytes->size(), 16u) << weight->nameOrEmpty();
      float first;
      std::memcpy(&first, weight->rare().external_bytes->data(), sizeof(first));
      EXPECT_EQ("w" + std::to_string(static_cast<int>(first)), weight->nameOrEmpty());
      ++checked;
    }
    EXPECT_EQ(checked, size_t{kNodes / 50});
  }
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
}

TEST(ParallelDecode, EveryConformanceModelDecodesTheSameOnTwoThreads) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t compared = 0;
  for (const auto& folder : cases) {
    std::ifstream in(folder / "model.onnx", std::ios::binary);
    if (!in) continue;
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Result<Model> serial = parseModel(bytes, nullptr, serialOptions());
    Result<Model> parallel = parseModel(bytes, nullptr, parallelOptions(2));
    ASSERT_EQ(serial.isOk(), parallel.isOk()) << folder;
    if (!serial.isOk()) continue;
    EXPECT_EQ(BindingDescription::of(*parallel), BindingDescription::of(*serial)) << folder;
    Result<std::string> a = serializeModel(*serial);
    Result<std::string> b = serializeModel(*parallel);
    ASSERT_TRUE(a.isOk() && b.isOk()) << folder;
    EXPECT_TRUE(*a == *b) << folder;
    ++compared;
  }
  EXPECT_GT(compared, 1000u);
}

}  // namespace
}  // namespace onyx
