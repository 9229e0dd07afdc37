// Malformed and hostile .onnx inputs, each built byte by byte in the test (no binary
// fixtures). Every one must be refused, not crash: with the expected ErrorCode, a Status
// path naming the place, and for wire errors a byte offset inside the input. Each input is
// decoded from an exact-size heap copy (so that AddressSanitizer sees any read past the
// end), decoded a second time (the input is a const view and stays untouched), and, when
// it is a whole file, also loaded from disk with loadModel().
//
// Where an error is about one field, the field is the last segment of the path: a wire
// error in a scalar or repeated-scalar field (wrong wire type, cut-off value, length past
// the end, bad packed payload, invalid UTF-8) ends with the field's name ("ir_version",
// "graph.node[0](add0).input"); a sub-message with the wrong wire type ends with the
// segment of that sub-message ("graph", "graph.node[0]").

#include <stdlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "onyx/serde/model_io.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

namespace f = testing::field;
using testing::ProtoBuilder;
using namespace std::string_literals;

constexpr int64_t kAnyOffset = -1;  // an offset must be set, inside the input
constexpr int64_t kNoOffset = -2;   // no offset: the error is not about a byte position

constexpr uint64_t kTerabyte = uint64_t{1} << 40;

bool contains(std::string_view text, std::string_view fragment) {
  return text.find(fragment) != std::string_view::npos;
}

std::string repeat(std::string_view text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// An exact-size heap copy of the input: one byte read past the end is an ASan error, which
// a std::string (terminator, spare capacity) would hide.
class ExactBuffer {
 public:
  explicit ExactBuffer(std::string_view bytes)
      : data_(new char[bytes.size()]), size_(bytes.size()) {
    if (size_ != 0) std::memcpy(data_.get(), bytes.data(), size_);
  }
  std::string_view view() const { return {data_.get(), size_}; }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_;
};

struct Parsed {
  std::shared_ptr<const ExactBuffer> buffer;  // also the model's owner
  Result<Model> model;
};

// Also decodes the bytes with their graphs split over threads (however small), and
// expects the same model or the very same error.
Parsed parse(std::string_view bytes, const LoadOptions& options = {},
             const std::string& folder = "") {
  auto buffer = std::make_shared<const ExactBuffer>(bytes);
  LoadOptions serial = options;
  serial.threads = 1;
  Result<Model> model = parseModel(buffer->view(), buffer, serial, folder);
  LoadOptions parallel = options;
  parallel.threads = 2;
  parallel.parallel_min_bytes = 0;
  Result<Model> split = parseModel(buffer->view(), buffer, parallel, folder);
  EXPECT_EQ(split.isOk(), model.isOk()) << "one thread and two disagree";
  if (!model.isOk() && !split.isOk()) {
    EXPECT_EQ(split.status().toString(), model.status().toString());
  } else if (model.isOk() && split.isOk()) {
    Result<std::string> one = serializeModel(*model);
    Result<std::string> two = serializeModel(*split);
    EXPECT_TRUE(one.isOk() && two.isOk() && *one == *two) << "one thread and two disagree";
  }
  return {std::move(buffer), std::move(model)};
}

void expectOffset(const Status& status, int64_t want, size_t input_size) {
  if (want == kNoOffset) {
    EXPECT_FALSE(status.offset().has_value()) << status.toString();
    return;
  }
  ASSERT_TRUE(status.offset().has_value()) << "no offset: " << status.toString();
  EXPECT_LE(*status.offset(), input_size) << status.toString();
  if (want >= 0) {
    EXPECT_EQ(*status.offset(), static_cast<uint64_t>(want)) << status.toString();
  }
}

// The offsets in `message` at which one of its fields ends, and 0: a valid message cut at
// one of them is still a valid message (with fewer fields); cut anywhere else it is not.
std::set<size_t> fieldBoundaries(std::string_view message) {
  std::set<size_t> ends{0};
  size_t pos = 0;
  auto varint = [&]() {
    uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      auto byte = static_cast<uint8_t>(message[pos++]);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (pos < message.size()) {
    switch (varint() & 7) {
      case 0: varint(); break;
      case 1: pos += 8; break;
      case 2: pos += varint(); break;
      case 5: pos += 4; break;
      default: ADD_FAILURE() << "fieldBoundaries only walks valid messages"; return ends;
    }
    ends.insert(pos);
  }
  return ends;
}

// True when `path` is `prefix` (with or without a "(name)" after it) or names one field
// of that message: one more segment, no deeper.
bool atOrOneBelow(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return false;
  std::string_view rest = path.substr(prefix.size());
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    if (close == std::string_view::npos) return false;
    rest.remove_prefix(close + 1);
  }
  if (rest.empty()) return true;
  if (!prefix.empty()) {
    if (rest.front() != '.') return false;
    rest.remove_prefix(1);
  }
  return rest.find('.') == std::string_view::npos;
}

// Models around one part, the rest kept minimal.
std::string modelAround(const ProtoBuilder& graph) { return testing::modelWithGraph(graph).str(); }

std::string modelWithNode(const ProtoBuilder& node) {
  return modelAround(ProtoBuilder().message(f::graph::kNode, node).bytes(f::graph::kName, "g"));
}

// Node "add0" Add(x, w) -> y with `attribute`.
std::string modelWithAttribute(const ProtoBuilder& attribute) {
  return modelWithNode(
      testing::nodeProto({"x", "w"}, {"y"}, "add0", "Add").message(f::node::kAttribute, attribute));
}

std::string modelWithInitializer(const ProtoBuilder& tensor) {
  return modelAround(
      ProtoBuilder().bytes(f::graph::kName, "g").message(f::graph::kInitializer, tensor));
}

std::string modelWithInput(const ProtoBuilder& value_info) {
  return modelAround(
      ProtoBuilder().bytes(f::graph::kName, "g").message(f::graph::kInput, value_info));
}

// A tensor that starts with its name "w", so that errors in later fields name it.
ProtoBuilder tensorW() { return ProtoBuilder().bytes(f::tensor::kName, "w"); }

// Graphs in attributes in nodes, `levels` deep: graph { node "n" { attribute "body" { g {
// ... graph "leaf" } } } }. Decoded from a model, the innermost graph is at depth
// 1 + 3 * levels (graph 1, node 2, attribute 3, graph 4, ...).
ProtoBuilder nestedGraphs(int levels) {
  ProtoBuilder graph = ProtoBuilder().bytes(f::graph::kName, "leaf");
  for (int i = 0; i < levels; ++i) {
    ProtoBuilder attribute = ProtoBuilder()
                                 .bytes(f::attribute::kName, "body")
                                 .message(f::attribute::kG, graph)
                                 .varint(f::attribute::kType, testing::attribute_type::kGraph);
    ProtoBuilder node =
        testing::nodeProto({}, {}, "n", "Loop").message(f::node::kAttribute, attribute);
    graph = ProtoBuilder().message(f::graph::kNode, node).bytes(f::graph::kName, "g");
  }
  return graph;
}

// The path of the error for nestedGraphs() refused at the node `levels` graphs down (the
// node that could not be entered, so without its name).
std::string nestedGraphsPath(int levels) {
  return "graph" + repeat(".node[0](n).attribute[0](body).g", levels) + ".node[0]";
}

// `levels` sequence types around a float tensor type.
ProtoBuilder nestedSequenceType(int levels) {
  ProtoBuilder type = testing::tensorType(testing::data_type::kFloat, {2});
  for (int i = 0; i < levels; ++i) {
    type = ProtoBuilder().message(f::type::kSequenceType,
                                  ProtoBuilder().message(f::type::kElemType, type));
  }
  return type;
}

// `levels` unknown groups (field 100) around one varint field, closed in order.
std::string nestedGroups(int levels) {
  ProtoBuilder groups;
  for (int i = 0; i < levels; ++i) groups.tag(100, testing::wire_type::kStartGroup);
  groups.varint(1, 7);
  for (int i = 0; i < levels; ++i) groups.tag(100, testing::wire_type::kEndGroup);
  return groups.str();
}

// A float[2] initializer "w" in external data with `entries` as its external_data.
ProtoBuilder externalTensor(
    std::initializer_list<std::pair<std::string_view, std::string_view>> entries) {
  ProtoBuilder tensor;
  tensor.varint(f::tensor::kDims, 2)
      .varint(f::tensor::kDataType, testing::data_type::kFloat)
      .bytes(f::tensor::kName, "w");
  for (const auto& [key, value] : entries) {
    tensor.message(f::tensor::kExternalData, testing::stringEntry(key, value));
  }
  tensor.varint(f::tensor::kDataLocation, testing::kDataLocationExternal);
  return tensor;
}

// A packed dims payload (a vector, unlike ProtoBuilder::packedVarints, so that cases can be
// kept in a table).
std::string packedDims(const std::vector<uint64_t>& dims) {
  std::string payload;
  for (uint64_t dim : dims) payload += testing::encodeVarint(dim);
  return payload;
}

std::string modelWithExternal(
    std::initializer_list<std::pair<std::string_view, std::string_view>> entries) {
  return modelWithInitializer(externalTensor(entries));
}

// The places a tensor can take in a model, each as a function from the tensor to the model
// bytes, with the path the decoder gives that place.
struct TensorPlace {
  std::string path;
  std::function<std::string(const ProtoBuilder&)> model;
};

// `named_lists`: the places inside a list whose entries the decoder names ("tensors[0](w)",
// "sparse_initializer[0](w)", "graphs[0](b)"); otherwise every other place.
std::vector<TensorPlace> tensorPlaces(bool named_lists) {
  auto attribute = [](uint32_t field, const ProtoBuilder& value) {
    return ProtoBuilder().bytes(f::attribute::kName, "value").message(field, value);
  };
  auto inNodeAttribute = [attribute](uint32_t field) {
    return [attribute, field](const ProtoBuilder& tensor) {
      return modelWithNode(testing::nodeProto({}, {"c"}, "c", "Constant")
                               .message(f::node::kAttribute, attribute(field, tensor)));
    };
  };
  auto sparse = [](const ProtoBuilder& values) {
    return ProtoBuilder().message(f::sparse::kValues, values);
  };
  if (named_lists) {
    return {
        {"graph.node[0](c).attribute[0](value).tensors[0](w)",
         inNodeAttribute(f::attribute::kTensors)},
        {"graph.sparse_initializer[0](w).values",
         [=](const ProtoBuilder& tensor) {
           return modelAround(ProtoBuilder().message(f::graph::kSparseInitializer, sparse(tensor)));
         }},
        {"graph.node[0](loop).attribute[0](bodies).graphs[0](b).initializer[0](w)",
         [](const ProtoBuilder& tensor) {
           return modelWithNode(
               testing::nodeProto({}, {}, "loop", "Loop")
                   .message(f::node::kAttribute,
                            ProtoBuilder()
                                .bytes(f::attribute::kName, "bodies")
                                .message(f::attribute::kGraphs,
                                         ProtoBuilder()
                                             .bytes(f::graph::kName, "b")
                                             .message(f::graph::kInitializer, tensor))));
         }},
    };
  }
  return {
      {"graph.initializer[0](w)",
       [](const ProtoBuilder& tensor) { return modelWithInitializer(tensor); }},
      {"graph.initializer[1](w)",
       [](const ProtoBuilder& tensor) {
         return modelAround(
             ProtoBuilder()
                 .message(f::graph::kInitializer, testing::floatTensor("v", {1}, {1}))
                 .message(f::graph::kInitializer, tensor));
       }},
      {"graph.node[0](c).attribute[0](value).t", inNodeAttribute(f::attribute::kT)},
      {"graph.node[0](c).attribute[0](value).sparse_tensor.values",
       [=](const ProtoBuilder& tensor) {
         return modelWithNode(testing::nodeProto({}, {"c"}, "c", "Constant")
                                  .message(f::node::kAttribute,
                                           attribute(f::attribute::kSparseTensor, sparse(tensor))));
       }},
      {"graph.node[0](loop).attribute[0](body).g.initializer[0](w)",
       [](const ProtoBuilder& tensor) {
         return modelWithNode(
             testing::nodeProto({}, {}, "loop", "Loop")
                 .message(f::node::kAttribute,
                          ProtoBuilder()
                              .bytes(f::attribute::kName, "body")
                              .message(f::attribute::kG,
                                       ProtoBuilder().message(f::graph::kInitializer, tensor))));
       }},
      {"functions[0](fn).node[0](c).attribute[0](value).t",
       [=](const ProtoBuilder& tensor) {
         return ProtoBuilder()
             .message(f::model::kFunctions,
                      ProtoBuilder()
                          .bytes(f::function::kName, "fn")
                          .message(f::function::kNode,
                                   testing::nodeProto({}, {"c"}, "c", "Constant")
                                       .message(f::node::kAttribute,
                                                attribute(f::attribute::kT, tensor))))
             .str();
       }},
      {"training_info[0].algorithm.initializer[0](w)",
       [](const ProtoBuilder& tensor) {
         return ProtoBuilder()
             .message(
                 f::model::kTrainingInfo,
                 ProtoBuilder().message(f::training::kAlgorithm,
                                        ProtoBuilder().message(f::graph::kInitializer, tensor)))
             .str();
       }},
  };
}

struct Want {
  ErrorCode code;
  std::string path;     // the exact Status path
  std::string message;  // a fragment of the message
  int64_t offset = kAnyOffset;
};

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "onyx-bad-input-XXXXXX");
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    base_ = pattern;
    std::filesystem::create_directory(modelDir());
    std::filesystem::create_directory(outsideDir());
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(base_, ignored);
  }

  // The model's folder, and a folder beside it that external data must not reach.
  std::filesystem::path modelDir() const { return base_ / "model"; }
  std::filesystem::path outsideDir() const { return base_ / "outside"; }

  static std::string writeFile(const std::filesystem::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    EXPECT_TRUE(out.good()) << path;
    return path.string();
  }
  std::string writeModel(std::string_view bytes) {
    return writeFile(modelDir() / "model.onnx", bytes);
  }

  // Decodes `bytes` with parseModel and (through a file) loadModel and expects `want` from
  // both.
  void expectRefused(const std::string& bytes, const Want& want, const LoadOptions& options = {}) {
    Parsed parsed = parse(bytes, options);
    EXPECT_FALSE(parsed.model.isOk()) << "accepted";
    if (parsed.model.isOk()) return;
    Status status = parsed.model.status();
    EXPECT_EQ(errorCodeName(status.code()), errorCodeName(want.code)) << status.toString();
    EXPECT_EQ(status.path(), want.path) << status.toString();
    EXPECT_TRUE(contains(status.message(), want.message))
        << status.toString() << "\n  does not say: " << want.message;
    expectOffset(status, want.offset, bytes.size());
    // The decoder only reads its input: the bytes are intact and decode the same way again.
    EXPECT_EQ(parsed.buffer->view(), std::string_view(bytes));
    Parsed again = parse(parsed.buffer->view(), options);
    EXPECT_EQ(again.model.status().toString(), status.toString());
    // The same bytes as a file.
    Result<Model> loaded = loadModel(writeModel(bytes), options);
    EXPECT_FALSE(loaded.isOk()) << "loadModel accepted what parseModel refused";
    if (!loaded.isOk()) {
      EXPECT_EQ(loaded.status().toString(), status.toString());
    }
  }

  // Decodes `bytes` and expects success. A `canonical` input (fields in field-number order,
  // as protobuf writes them) must be written back byte-identical; any other must be written
  // in a form that is its own fixpoint.
  Parsed expectAccepted(const std::string& bytes, const LoadOptions& options = {},
                        bool canonical = true) {
    Parsed parsed = parse(bytes, options);
    EXPECT_TRUE(parsed.model.isOk()) << parsed.model.status().toString();
    if (!parsed.model.isOk()) return parsed;
    Result<std::string> written = serializeModel(*parsed.model);
    EXPECT_TRUE(written.isOk()) << written.status().toString();
    if (!written.isOk()) return parsed;
    if (canonical) {
      EXPECT_EQ(*written, bytes) << "not written back byte-identical";
    } else {
      Parsed reread = parse(*written, options);
      EXPECT_TRUE(reread.model.isOk()) << reread.model.status().toString();
      if (reread.model.isOk()) {
        Result<std::string> rewritten = serializeModel(*reread.model);
        EXPECT_TRUE(rewritten.isOk() && *rewritten == *written) << "not a fixpoint";
      }
    }
    return parsed;
  }

  // Writes the 8-byte data file w.bin and the model into the model folder, decodes the
  // model with parseModel (folder given) and loadModel, and expects the same refusal from
  // both, with `code`, `fragment` in the message, and the tensor's place in the model as
  // the path (by default the initializer of modelWithExternal()).
  void expectExternalRefused(const std::string& bytes, ErrorCode code, std::string_view fragment,
                             std::string_view path = "graph.initializer[0](w)") {
    writeFile(modelDir() / "w.bin", "\x01\x02\x03\x04\x05\x06\x07\x08"s);
    Parsed parsed = parse(bytes, {}, modelDir().string());
    EXPECT_FALSE(parsed.model.isOk()) << "accepted";
    if (parsed.model.isOk()) return;
    Status status = parsed.model.status();
    EXPECT_EQ(errorCodeName(status.code()), errorCodeName(code)) << status.toString();
    EXPECT_TRUE(contains(status.message(), fragment))
        << status.toString() << "\n  does not say: " << fragment;
    EXPECT_EQ(status.path(), path) << status.toString();
    expectOffset(status, kNoOffset, bytes.size());
    EXPECT_EQ(parsed.buffer->view(), std::string_view(bytes));
    Result<Model> loaded = loadModel(writeModel(bytes));
    EXPECT_FALSE(loaded.isOk()) << "loadModel accepted what parseModel refused";
    if (!loaded.isOk()) {
      EXPECT_EQ(loaded.status().toString(), status.toString());
    }
  }

  // Puts a tensor at `place` twice: with a negative dim, where the decoder's path must be
  // `place.path` + ".dims", and in external data that leaves the folder, where the
  // external-data error's path must be `place.path`: one tensor, one name.
  void expectExternalRefusedAt(const TensorPlace& place) {
    Parsed decoded = parse(place.model(tensorW().varint(f::tensor::kDims, ~uint64_t{0})));
    ASSERT_FALSE(decoded.model.isOk());
    EXPECT_EQ(decoded.model.status().path(), place.path + ".dims")
        << decoded.model.status().toString();
    expectExternalRefused(place.model(externalTensor({{"location", "../x"}})),
                          ErrorCode::kUnsafePath, "leaves the model's folder", place.path);
  }

  // Cuts `payload` at every byte, builds a model around each prefix with `wrap`, and checks
  // that the model decodes exactly when the cut is at a field boundary of `payload`, and
  // otherwise fails cleanly: kMalformed, at `path` (the message that was cut) or one of its
  // fields, at an offset inside the input. Returns the number of failures.
  size_t checkEveryCut(std::string_view payload,
                       const std::function<std::string(std::string_view)>& wrap,
                       std::string_view path) {
    const std::set<size_t> boundaries = fieldBoundaries(payload);
    size_t failures = 0;
    for (size_t n = 0; n < payload.size(); ++n) {
      SCOPED_TRACE("cut at byte " + std::to_string(n));
      const std::string bytes = wrap(payload.substr(0, n));
      Parsed parsed = parse(bytes);
      EXPECT_EQ(parsed.model.isOk(), boundaries.count(n) == 1) << parsed.model.status().toString();
      if (parsed.model.isOk()) continue;
      ++failures;
      const Status& status = parsed.model.status();
      EXPECT_EQ(status.code(), ErrorCode::kMalformed) << status.toString();
      EXPECT_TRUE(atOrOneBelow(status.path(), path)) << status.toString();
      expectOffset(status, kAnyOffset, bytes.size());
      EXPECT_EQ(parsed.buffer->view(), std::string_view(bytes));
    }
    return failures;
  }

  std::filesystem::path base_;
};

// ---------------------------------------------------------------------------------------
// The baselines: what the malformed inputs are variations of.

TEST_F(BadInput, TheValidModelDecodesAndWritesBackByteIdentical) {
  Parsed parsed = expectAccepted(testing::validModelBytes());
  ASSERT_TRUE(parsed.model.isOk());
  const Model& model = *parsed.model;
  EXPECT_EQ(model.ir_version, 8);
  EXPECT_EQ(model.opsetVersion(""), 13);
  ASSERT_NE(model.graph, nullptr);
  EXPECT_EQ(model.graph->name.value_or("?"), "g");
  ASSERT_EQ(model.graph->nodeCount(), 1u);
  const Node& node = *model.graph->firstNode();
  EXPECT_EQ(node.nameOrEmpty(), "add0");
  EXPECT_EQ(node.opType(), "Gemm");
  ASSERT_NE(node.attribute("alpha"), nullptr);
  EXPECT_EQ(node.attribute("alpha")->f, 1.0f);
  ASSERT_EQ(model.graph->initializers.size(), 1u);
  EXPECT_EQ(model.graph->initializers[0]->raw_data->size(), 8u);
  EXPECT_EQ(model.graph->inputs.size(), 1u);
  EXPECT_EQ(model.graph->outputs.size(), 1u);
}

TEST_F(BadInput, EmptyBufferIsAValidEmptyModel) {
  // Protobuf: zero bytes are a message with every field absent.
  Parsed parsed = expectAccepted("");
  ASSERT_TRUE(parsed.model.isOk());
  EXPECT_FALSE(parsed.model->ir_version.has_value());
  EXPECT_EQ(parsed.model->graph, nullptr);
  EXPECT_TRUE(parsed.model->opset_import.empty());

  Result<Model> loaded = loadModel(writeModel(""));
  ASSERT_TRUE(loaded.isOk()) << loaded.status().toString();
  Result<std::string> written = serializeModel(*loaded);
  ASSERT_TRUE(written.isOk());
  EXPECT_EQ(*written, "");
}

// ---------------------------------------------------------------------------------------
// Truncation

TEST_F(BadInput, EveryPrefixOfTheValidModelDecodesOrFailsCleanly) {
  const std::string bytes = testing::validModelBytes();
  size_t failures = checkEveryCut(
      bytes, [](std::string_view prefix) { return std::string(prefix); }, "");
  // Only the cuts after ir_version and after the graph (and the empty prefix) decode.
  EXPECT_EQ(failures, bytes.size() - 3);
}

TEST_F(BadInput, EveryCutOfTheGraphInsideAConsistentModelDecodesOrFailsCleanly) {
  // The graph field's length is fixed up to the cut, so the graph itself ends early.
  const std::string graph = testing::validGraph().str();
  size_t failures = checkEveryCut(
      graph,
      [](std::string_view prefix) {
        return ProtoBuilder()
            .varint(f::model::kIrVersion, 8)
            .bytes(f::model::kGraph, prefix)
            .message(f::model::kOpsetImport, testing::opsetImport("", 13))
            .str();
      },
      "graph");
  EXPECT_GT(failures, graph.size() / 2);
}

TEST_F(BadInput, EveryCutOfANodeInsideAConsistentModelDecodesOrFailsCleanly) {
  const std::string node = testing::validNode().str();
  size_t failures = checkEveryCut(
      node,
      [](std::string_view prefix) {
        return modelAround(ProtoBuilder().bytes(f::graph::kNode, prefix));
      },
      "graph.node[0]");
  EXPECT_GT(failures, node.size() / 2);
}

TEST_F(BadInput, EveryCutOfATensorInsideAConsistentModelDecodesOrFailsCleanly) {
  const std::string tensor = testing::validTensor().str();
  size_t failures = checkEveryCut(
      tensor,
      [](std::string_view prefix) {
        return modelAround(ProtoBuilder().bytes(f::graph::kInitializer, prefix));
      },
      "graph.initializer[0]");
  EXPECT_GT(failures, tensor.size() / 2);
}

// ---------------------------------------------------------------------------------------
// Lengths

TEST_F(BadInput, TopLevelLengthPastTheEnd) {
  // ir_version (2 bytes), then graph's key at byte 2 and its length at byte 3.
  std::string bytes = ProtoBuilder()
                          .varint(f::model::kIrVersion, 8)
                          .bytesWithLength(f::model::kGraph, 100, "abc")
                          .str();
  expectRefused(bytes, {ErrorCode::kMalformed, "graph", "length 100 runs past the end", 3});
}

TEST_F(BadInput, NodeFieldLengthPastTheEndOfTheNode) {
  std::string bytes = modelWithNode(
      ProtoBuilder().bytes(f::node::kName, "add0").bytesWithLength(f::node::kInput, 50, "x"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0).input", "length 50 runs past"});
}

TEST_F(BadInput, InlineTensorRawDataLengthPastTheEndOfTheTensor) {
  std::string bytes = modelWithInitializer(
      tensorW()
          .varint(f::tensor::kDims, 2)
          .varint(f::tensor::kDataType, testing::data_type::kFloat)
          .bytesWithLength(f::tensor::kRawData, 1000, "\x01\x02\x03\x04\x05\x06\x07\x08"));
  expectRefused(bytes,
                {ErrorCode::kMalformed, "graph.initializer[0](w).raw_data", "length 1000 runs"});
}

TEST_F(BadInput, InlineTensorClaimingATerabyteFailsFastWithoutAllocating) {
  // raw_data says 1 TB: a decoder that trusted the length would allocate or read it.
  std::string bytes = modelWithInitializer(
      tensorW().bytesWithLength(f::tensor::kRawData, kTerabyte, "\x01\x02\x03\x04"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).raw_data",
                        "length " + std::to_string(kTerabyte) + " runs past"});
}

TEST_F(BadInput, InlineTensorClaimingMoreThanTheFileWithEveryOuterLengthLying) {
  // The graph's and the initializer's lengths claim 1 TB as well: the outermost lie is
  // caught first, at the top level.
  std::string tensor = tensorW().bytesWithLength(f::tensor::kRawData, kTerabyte, "abcd").str();
  std::string graph =
      ProtoBuilder().bytesWithLength(f::graph::kInitializer, kTerabyte, tensor).str();
  std::string bytes = ProtoBuilder().bytesWithLength(f::model::kGraph, kTerabyte, graph).str();
  expectRefused(bytes, {ErrorCode::kMalformed, "graph", "length 1099511627776 runs past", 1});
}

TEST_F(BadInput, LengthOf2To63DoesNotWrap) {
  std::string bytes =
      ProtoBuilder().bytesWithLength(f::model::kProducerName, uint64_t{1} << 63, "abc").str();
  expectRefused(
      bytes, {ErrorCode::kMalformed, "producer_name", "length 9223372036854775808 runs past", 1});
}

TEST_F(BadInput, LengthOf2To64Minus1DoesNotWrap) {
  // Inside a node, where pos + length would wrap around to before pos.
  std::string bytes = modelWithNode(
      ProtoBuilder().bytesWithLength(f::node::kName, std::numeric_limits<uint64_t>::max(), "add0"));
  expectRefused(bytes,
                {ErrorCode::kMalformed, "graph.node[0].name", "length 18446744073709551615 runs"});
}

TEST_F(BadInput, LengthOf2To32Plus3IsNotNarrowedTo3) {
  // Narrowed to 32 bits this length would be 3, exactly the bytes that follow.
  std::string bytes =
      ProtoBuilder().bytesWithLength(f::model::kProducerName, (uint64_t{1} << 32) + 3, "abc").str();
  expectRefused(bytes, {ErrorCode::kMalformed, "producer_name", "length 4294967299 runs past", 1});
}

TEST_F(BadInput, PackedFloatDataClaimingATerabyte) {
  std::string bytes = modelWithInitializer(
      tensorW().bytesWithLength(f::tensor::kFloatData, kTerabyte, "\x00\x00\x80\x3f"s));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).float_data",
                        "length 1099511627776 runs past"});
}

TEST_F(BadInput, PackedDimsClaimingAHugeCount) {
  // A dims payload that claims 2^40 bytes of varints (up to 2^40 dims).
  std::string bytes =
      modelWithInitializer(tensorW().bytesWithLength(f::tensor::kDims, kTerabyte, "\x02\x02"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).dims",
                        "length 1099511627776 runs past"});
}

TEST_F(BadInput, AttributeFloatsClaimingATerabyte) {
  std::string bytes =
      modelWithAttribute(ProtoBuilder()
                             .bytes(f::attribute::kName, "alpha")
                             .bytesWithLength(f::attribute::kFloats, kTerabyte, ""));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0).attribute[0](alpha).floats",
                        "length 1099511627776 runs past"});
}

// ---------------------------------------------------------------------------------------
// Varints

TEST_F(BadInput, VarintOf11BytesIsRefused) {
  std::string bytes = ProtoBuilder()
                          .tag(f::model::kIrVersion, testing::wire_type::kVarint)
                          .raw(std::string(10, '\x80') + "\x01")
                          .str();
  expectRefused(bytes, {ErrorCode::kMalformed, "ir_version", "longer than 10 bytes", 1});
}

TEST_F(BadInput, KeyVarintOf11BytesIsRefused) {
  std::string bytes = testing::validModelBytes() + std::string(10, '\x88') + "\x01";
  expectRefused(bytes, {ErrorCode::kMalformed, "", "longer than 10 bytes",
                        static_cast<int64_t>(testing::validModelBytes().size())});
}

TEST_F(BadInput, VarintOf10BytesIsAccepted) {
  // The boundary: 10 bytes is the longest varint (-1 as an int64 takes all of them).
  std::string bytes = ProtoBuilder().varint(f::model::kIrVersion, ~uint64_t{0}).str();
  ASSERT_EQ(bytes.size(), 11u);
  Parsed parsed = expectAccepted(bytes);
  ASSERT_TRUE(parsed.model.isOk());
  EXPECT_EQ(parsed.model->ir_version, -1);
}

TEST_F(BadInput, VarintCutOffAtTheEnd) {
  std::string bytes =
      ProtoBuilder().tag(f::model::kIrVersion, testing::wire_type::kVarint).raw("\x80\x80").str();
  expectRefused(bytes, {ErrorCode::kMalformed, "ir_version", "a varint runs past the end", 1});
}

TEST_F(BadInput, KeyCutOffAtTheEnd) {
  const std::string valid = testing::validModelBytes();
  expectRefused(valid + "\x80", {ErrorCode::kMalformed, "", "a varint runs past the end",
                                 static_cast<int64_t>(valid.size())});
}

TEST_F(BadInput, VarintCutOffAtTheEndOfAnAttribute) {
  std::string bytes = modelWithAttribute(ProtoBuilder()
                                             .bytes(f::attribute::kName, "alpha")
                                             .tag(f::attribute::kI, testing::wire_type::kVarint)
                                             .raw("\xff"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0).attribute[0](alpha).i",
                        "a varint runs past the end"});
}

// ---------------------------------------------------------------------------------------
// Keys: field numbers and wire types

TEST_F(BadInput, FieldNumberZero) {
  std::string bytes = ProtoBuilder().varint(f::model::kIrVersion, 8).varint(0, 1).str();
  expectRefused(bytes, {ErrorCode::kMalformed, "", "invalid field number 0", 2});
}

TEST_F(BadInput, FieldNumberZeroLengthDelimitedInAGraph) {
  std::string bytes = modelAround(ProtoBuilder().bytes(f::graph::kName, "g").bytes(0, "zz"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph", "invalid field number 0"});
}

TEST_F(BadInput, FieldNumber2To29) {
  std::string bytes = ProtoBuilder().varint(uint64_t{1} << 29, 1).str();
  expectRefused(bytes, {ErrorCode::kMalformed, "", "invalid field number 536870912", 0});
}

TEST_F(BadInput, FieldNumberPast32BitsIsNotNarrowed) {
  // Narrowed to 32 bits, field 2^32 + 1 would be ir_version; its key takes 6 bytes, more
  // than any valid key, and is refused as libprotobuf refuses it.
  std::string bytes = ProtoBuilder().varint((uint64_t{1} << 32) + 1, 1).str();
  expectRefused(bytes, {ErrorCode::kMalformed, "", "a field key is longer than 5 bytes", 0});
}

TEST_F(BadInput, FieldNumber2To29Minus1IsAnUnknownFieldKept) {
  std::string bytes = testing::validModelBytes() + ProtoBuilder().varint((1u << 29) - 1, 5).str();
  Parsed parsed = expectAccepted(bytes);
  ASSERT_TRUE(parsed.model.isOk());
  ASSERT_EQ(parsed.model->unknown.size(), 1u);
  EXPECT_EQ(parsed.model->unknown[0].number, (1u << 29) - 1);
}

TEST_F(BadInput, WireType6) {
  std::string bytes = ProtoBuilder().varint(f::model::kIrVersion, 8).tag(1, 6).raw("\x01").str();
  expectRefused(bytes, {ErrorCode::kMalformed, "", "invalid wire type 6 for field 1", 2});
}

TEST_F(BadInput, WireType7InANode) {
  std::string bytes =
      modelWithNode(ProtoBuilder().bytes(f::node::kName, "add0").tag(100, 7).raw("\x01"));
  expectRefused(
      bytes, {ErrorCode::kMalformed, "graph.node[0](add0)", "invalid wire type 7 for field 100"});
}

// ---------------------------------------------------------------------------------------
// Groups (ONNX has none: every group is an unknown field)

TEST_F(BadInput, EndGroupWithoutStart) {
  std::string bytes =
      ProtoBuilder().varint(f::model::kIrVersion, 8).tag(100, testing::wire_type::kEndGroup).str();
  expectRefused(bytes, {ErrorCode::kMalformed, "", "end of group 100 without a start"});
}

TEST_F(BadInput, EndGroupWithoutStartInATensor) {
  std::string bytes = modelWithInitializer(tensorW().tag(100, testing::wire_type::kEndGroup));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w)",
                        "end of group 100 without a start"});
}

TEST_F(BadInput, EndGroupKeyForAKnownField) {
  std::string bytes = ProtoBuilder().tag(f::model::kIrVersion, testing::wire_type::kEndGroup).str();
  expectRefused(bytes, {ErrorCode::kMalformed, "ir_version",
                        "wire type end-group where ir_version needs varint", 1});
}

TEST_F(BadInput, UnterminatedGroup) {
  std::string bytes = ProtoBuilder()
                          .varint(f::model::kIrVersion, 8)
                          .tag(100, testing::wire_type::kStartGroup)
                          .varint(1, 5)
                          .str();
  expectRefused(bytes, {ErrorCode::kMalformed, "", "group 100 has no end"});
}

TEST_F(BadInput, UnterminatedGroupInANode) {
  std::string bytes = modelWithNode(ProtoBuilder()
                                        .bytes(f::node::kName, "add0")
                                        .tag(100, testing::wire_type::kStartGroup)
                                        .bytes(3, "text"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0)", "group 100 has no end"});
}

TEST_F(BadInput, GroupClosedByAnotherFieldNumber) {
  std::string bytes = ProtoBuilder()
                          .tag(100, testing::wire_type::kStartGroup)
                          .tag(101, testing::wire_type::kEndGroup)
                          .str();
  expectRefused(bytes, {ErrorCode::kMalformed, "", "group 100 ends as group 101"});
}

TEST_F(BadInput, GroupHoldingAnInvalidWireType) {
  std::string bytes = ProtoBuilder()
                          .tag(100, testing::wire_type::kStartGroup)
                          .tag(5, 7)
                          .tag(100, testing::wire_type::kEndGroup)
                          .str();
  expectRefused(bytes, {ErrorCode::kMalformed, "", "invalid wire type 7 for field 5"});
}

// Regression test: groups nested past max_depth were reported as kMalformed. They are
// well-formed protobuf that passes an onyx safety limit, exactly like messages nested
// past it, so they are kLimitExceeded too.
TEST_F(BadInput, GroupsNestedPastTheLimitAreLimitExceeded) {
  // At the top level (depth 0) groups may nest max_depth (100) deep, like messages: the
  // 101st start-group key is refused, at the byte after it.
  const size_t key_size = ProtoBuilder().tag(100, testing::wire_type::kStartGroup).size();
  expectAccepted(nestedGroups(100));
  expectRefused(nestedGroups(101), {ErrorCode::kLimitExceeded, "", "groups nest too deeply",
                                    static_cast<int64_t>(101 * key_size)});
  expectRefused(nestedGroups(150), {ErrorCode::kLimitExceeded, "", "groups nest too deeply",
                                    static_cast<int64_t>(101 * key_size)});
  // Inside the graph (depth 1) one level less is left.
  expectAccepted(modelAround(ProtoBuilder().bytes(f::graph::kName, "g").raw(nestedGroups(99))));
  expectRefused(modelAround(ProtoBuilder().bytes(f::graph::kName, "g").raw(nestedGroups(100))),
                {ErrorCode::kLimitExceeded, "graph", "groups nest too deeply"});
}

TEST_F(BadInput, GroupsHonourTheMaxDepthOption) {
  LoadOptions options;
  options.max_depth = 1;
  expectAccepted(nestedGroups(1), options);
  expectRefused(nestedGroups(2), {ErrorCode::kLimitExceeded, "", "groups nest too deeply"},
                options);
}

TEST_F(BadInput, GroupsNestedWithinTheLimitAreKeptAndWrittenBack) {
  Parsed parsed = expectAccepted(nestedGroups(50));
  ASSERT_TRUE(parsed.model.isOk());
  ASSERT_EQ(parsed.model->unknown.size(), 1u);
  EXPECT_EQ(parsed.model->unknown[0].number, 100u);
}

// ---------------------------------------------------------------------------------------
// Known fields with the wrong wire type

TEST_F(BadInput, NodeInputAsVarint) {
  std::string bytes =
      modelWithNode(ProtoBuilder().bytes(f::node::kName, "add0").varint(f::node::kInput, 3));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0).input",
                        "wire type varint where input needs length-delimited"});
}

TEST_F(BadInput, ModelGraphAsFixed32) {
  std::string bytes =
      ProtoBuilder().varint(f::model::kIrVersion, 8).fixed32(f::model::kGraph, 0x01020304).str();
  // ir_version takes bytes 0-1, graph's key is byte 2 and its value starts at byte 3.
  expectRefused(bytes, {ErrorCode::kMalformed, "graph",
                        "wire type fixed32 where graph needs length-delimited", 3});
}

TEST_F(BadInput, TensorDimsAsFixed64) {
  std::string bytes = modelWithInitializer(tensorW().fixed64(f::tensor::kDims, 2));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).dims",
                        "wire type fixed64 where dims needs length-delimited"});
}

TEST_F(BadInput, AttributeFloatAsVarint) {
  std::string bytes = modelWithAttribute(
      ProtoBuilder().bytes(f::attribute::kName, "alpha").varint(f::attribute::kF, 1));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0).attribute[0](alpha).f",
                        "wire type varint where f needs fixed32"});
}

TEST_F(BadInput, IrVersionAsLengthDelimited) {
  std::string bytes = ProtoBuilder().bytes(f::model::kIrVersion, "8").str();
  expectRefused(bytes, {ErrorCode::kMalformed, "ir_version",
                        "wire type length-delimited where ir_version needs varint", 1});
}

TEST_F(BadInput, OpsetVersionAsFixed64) {
  std::string bytes =
      ProtoBuilder()
          .message(f::model::kOpsetImport,
                   ProtoBuilder().bytes(f::opset::kDomain, "").fixed64(f::opset::kVersion, 13))
          .str();
  expectRefused(bytes, {ErrorCode::kMalformed, "opset_import[0].version",
                        "wire type fixed64 where version needs varint"});
}

TEST_F(BadInput, TensorInt32DataAsFixed32) {
  std::string bytes = modelWithInitializer(tensorW().fixed32(f::tensor::kInt32Data, 7));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).int32_data",
                        "wire type fixed32 where int32_data needs length-delimited"});
}

TEST_F(BadInput, ValueInfoTypeAsVarint) {
  std::string bytes = modelWithInput(
      ProtoBuilder().bytes(f::value_info::kName, "x").varint(f::value_info::kType, 1));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.input[0](x).type",
                        "wire type varint where type needs length-delimited"});
}

// ---------------------------------------------------------------------------------------
// Packed payloads and fixed-size values

TEST_F(BadInput, PackedFloatDataNotWholeFloats) {
  std::string bytes =
      modelWithInitializer(tensorW().bytes(f::tensor::kFloatData, "\x00\x00\x80\x3f\x00"s));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).float_data",
                        "packed float_data does not hold whole elements"});
}

TEST_F(BadInput, PackedDoubleDataNotWholeDoubles) {
  std::string bytes =
      modelWithInitializer(tensorW().bytes(f::tensor::kDoubleData, std::string(12, '\0')));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).double_data",
                        "packed double_data does not hold whole elements"});
}

TEST_F(BadInput, PackedInt32DataWithItsLastVarintCutOff) {
  std::string bytes = modelWithInitializer(tensorW().bytes(f::tensor::kInt32Data, "\x01\x02\x80"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).int32_data",
                        "packed int32_data does not hold whole elements"});
}

TEST_F(BadInput, PackedInt64DataWithAVarintOf11Bytes) {
  std::string bytes = modelWithInitializer(
      tensorW().bytes(f::tensor::kInt64Data, "\x01" + std::string(10, '\xff') + "\x01"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).int64_data",
                        "packed int64_data does not hold whole elements"});
}

TEST_F(BadInput, PackedUint64DataWithItsLastVarintCutOff) {
  std::string bytes = modelWithInitializer(tensorW().bytes(f::tensor::kUint64Data, "\xff\xff"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).uint64_data",
                        "packed uint64_data does not hold whole elements"});
}

TEST_F(BadInput, PackedDimsWithItsLastVarintCutOff) {
  std::string bytes = modelWithInitializer(tensorW().bytes(f::tensor::kDims, "\x02\x80"));
  expectRefused(
      bytes, {ErrorCode::kMalformed, "graph.initializer[0](w).dims", "a varint runs past the end"});
}

TEST_F(BadInput, PackedAttributeFloatsNotWholeFloats) {
  std::string bytes =
      modelWithAttribute(ProtoBuilder()
                             .bytes(f::attribute::kName, "alpha")
                             .bytes(f::attribute::kFloats, "\x00\x00\x80\x3f\x00\x00"s));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0).attribute[0](alpha).floats",
                        "packed floats is not a whole number of floats"});
}

TEST_F(BadInput, PackedAttributeIntsWithItsLastVarintCutOff) {
  std::string bytes = modelWithAttribute(
      ProtoBuilder().bytes(f::attribute::kName, "pads").bytes(f::attribute::kInts, "\x01\x01\x80"));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0).attribute[0](pads).ints",
                        "a varint runs past the end"});
}

TEST_F(BadInput, Fixed32CutOffAtTheEndOfAnAttribute) {
  std::string bytes = modelWithAttribute(ProtoBuilder()
                                             .bytes(f::attribute::kName, "alpha")
                                             .tag(f::attribute::kF, testing::wire_type::kFixed32)
                                             .raw("\x00\x00"s));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0).attribute[0](alpha).f",
                        "a 4-byte value runs past the end"});
}

TEST_F(BadInput, Fixed64CutOffAtTheEnd) {
  std::string bytes =
      ProtoBuilder().tag(100, testing::wire_type::kFixed64).raw("\x01\x02\x03").str();
  expectRefused(bytes, {ErrorCode::kMalformed, "", "an 8-byte value runs past the end"});
}

// ---------------------------------------------------------------------------------------
// Nesting depth

TEST_F(BadInput, GraphsInAttributesNested200DeepAreRefused) {
  // Refused where depth 101 would begin: at the node inside the 33rd nested graph.
  expectRefused(modelAround(nestedGraphs(200)), {ErrorCode::kLimitExceeded, nestedGraphsPath(33),
                                                 "messages nest more than 100 deep"});
}

TEST_F(BadInput, GraphsNestedToExactlyTheLimitAreAccepted) {
  // 33 levels put the innermost graph at depth 1 + 3 * 33 = 100, the default limit.
  Parsed parsed = expectAccepted(modelAround(nestedGraphs(33)));
  ASSERT_TRUE(parsed.model.isOk());
  const Graph* graph = parsed.model->graph;
  for (int level = 0; level < 33 && graph != nullptr; ++level) {
    ASSERT_EQ(graph->nodeCount(), 1u);
    graph = graph->firstNode()->attribute("body")->g;
  }
  ASSERT_NE(graph, nullptr);
  EXPECT_EQ(graph->name.value_or(""), "leaf");
  // One more level and the node inside the 33rd graph is at depth 101.
  expectRefused(modelAround(nestedGraphs(34)),
                {ErrorCode::kLimitExceeded, nestedGraphsPath(33), "nest more than 100 deep"});
}

TEST_F(BadInput, MaxDepthOptionIsHonoured) {
  LoadOptions options;
  options.max_depth = 10;
  // Three levels reach depth 10; four are refused at the node inside the third graph.
  EXPECT_TRUE(parse(modelAround(nestedGraphs(3)), options).model.isOk());
  expectRefused(modelAround(nestedGraphs(4)),
                {ErrorCode::kLimitExceeded, nestedGraphsPath(3), "nest more than 10 deep"},
                options);
}

TEST_F(BadInput, MaxDepthBelowOneIsAnInvalidArgument) {
  // A limit that no model could meet (the graph alone is at depth 1) is the caller's
  // mistake, not the input's: refused before a byte is read, whatever the bytes.
  for (int max_depth : {0, -1, std::numeric_limits<int>::min()}) {
    SCOPED_TRACE("max_depth " + std::to_string(max_depth));
    LoadOptions options;
    options.max_depth = max_depth;
    for (const std::string& bytes :
         {std::string(), testing::validModelBytes(), std::string("\xff")}) {
      Parsed parsed = parse(bytes, options);
      ASSERT_FALSE(parsed.model.isOk());
      const Status& status = parsed.model.status();
      EXPECT_EQ(errorCodeName(status.code()), errorCodeName(ErrorCode::kInvalidArgument))
          << status.toString();
      EXPECT_TRUE(contains(status.message(), "max_depth")) << status.toString();
      EXPECT_EQ(status.path(), "") << status.toString();
      expectOffset(status, kNoOffset, bytes.size());
      Result<Model> loaded = loadModel(writeModel(bytes), options);
      ASSERT_FALSE(loaded.isOk());
      EXPECT_EQ(loaded.status().toString(), status.toString());
    }
  }
}

TEST_F(BadInput, MaxDepthOfOneAllowsTheGraphButNotItsNodes) {
  LoadOptions options;
  options.max_depth = 1;
  // The graph and the opset_import are at depth 1.
  expectAccepted(modelAround(ProtoBuilder().bytes(f::graph::kName, "g")), options);
  expectRefused(testing::validModelBytes(),
                {ErrorCode::kLimitExceeded, "graph.node[0]", "messages nest more than 1 deep"},
                options);
}

TEST_F(BadInput, SequenceTypes1000DeepAreRefused) {
  std::string bytes = modelWithInput(ProtoBuilder()
                                         .bytes(f::value_info::kName, "x")
                                         .message(f::value_info::kType, nestedSequenceType(1000)));
  // graph 1, value_info 2, then type (odd depths) and its sequence member (even depths):
  // the member at depth 100 (the 49th) cannot enter its elem_type.
  std::string path = "graph.input[0](x).type" + repeat(".sequence_type.elem_type", 49);
  expectRefused(bytes, {ErrorCode::kLimitExceeded, path, "messages nest more than 100 deep"});
}

TEST_F(BadInput, SequenceTypes40DeepAreAccepted) {
  std::string bytes = modelWithInput(ProtoBuilder()
                                         .bytes(f::value_info::kName, "x")
                                         .message(f::value_info::kType, nestedSequenceType(40)));
  Parsed parsed = expectAccepted(bytes);
  ASSERT_TRUE(parsed.model.isOk());
  const Type* type = parsed.model->graph->inputs[0]->type;
  int depth = 0;
  while (type != nullptr && type->kind == Type::Kind::kSequence) {
    type = type->elem;
    ++depth;
  }
  EXPECT_EQ(depth, 40);
  ASSERT_NE(type, nullptr);
  EXPECT_TRUE(type->isTensor());
}

// ---------------------------------------------------------------------------------------
// UTF-8 in names

struct NameCase {
  const char* what;
  std::string bytes;
  std::string path;  // ends with the name field
};

// Every name field, each with `bad` in it. A message whose own name is bad is not named in
// the path (`graph.node[0].name`): only names read before the failing field are.
std::vector<NameCase> nameCases(const std::string& bad) {
  using testing::data_type::kFloat;
  std::vector<NameCase> cases;
  cases.push_back({"node name", modelWithNode(ProtoBuilder().bytes(f::node::kName, bad)),
                   "graph.node[0].name"});
  cases.push_back(
      {"node input (a value name)",
       modelWithNode(ProtoBuilder().bytes(f::node::kName, "add0").bytes(f::node::kInput, bad)),
       "graph.node[0](add0).input"});
  cases.push_back(
      {"node output (a value name)",
       modelWithNode(ProtoBuilder().bytes(f::node::kName, "add0").bytes(f::node::kOutput, bad)),
       "graph.node[0](add0).output"});
  cases.push_back(
      {"op_type",
       modelWithNode(ProtoBuilder().bytes(f::node::kName, "add0").bytes(f::node::kOpType, bad)),
       "graph.node[0](add0).op_type"});
  cases.push_back(
      {"node domain",
       modelWithNode(ProtoBuilder().bytes(f::node::kName, "add0").bytes(f::node::kDomain, bad)),
       "graph.node[0](add0).domain"});
  cases.push_back(
      {"node overload",
       modelWithNode(ProtoBuilder().bytes(f::node::kName, "add0").bytes(f::node::kOverload, bad)),
       "graph.node[0](add0).overload"});
  cases.push_back(
      {"graph name", modelAround(ProtoBuilder().bytes(f::graph::kName, bad)), "graph.name"});
  cases.push_back({"attribute name",
                   modelWithAttribute(ProtoBuilder().bytes(f::attribute::kName, bad)),
                   "graph.node[0](add0).attribute[0].name"});
  cases.push_back({"attribute ref_attr_name",
                   modelWithAttribute(ProtoBuilder()
                                          .bytes(f::attribute::kName, "alpha")
                                          .bytes(f::attribute::kRefAttrName, bad)),
                   "graph.node[0](add0).attribute[0](alpha).ref_attr_name"});
  cases.push_back({"initializer name",
                   modelWithInitializer(ProtoBuilder()
                                            .varint(f::tensor::kDims, 2)
                                            .varint(f::tensor::kDataType, kFloat)
                                            .bytes(f::tensor::kName, bad)),
                   "graph.initializer[0].name"});
  cases.push_back({"attribute tensor name",
                   modelWithAttribute(
                       ProtoBuilder()
                           .bytes(f::attribute::kName, "value")
                           .message(f::attribute::kT, ProtoBuilder().bytes(f::tensor::kName, bad))),
                   "graph.node[0](add0).attribute[0](value).t.name"});
  cases.push_back({"graph input name",
                   modelWithInput(ProtoBuilder().bytes(f::value_info::kName, bad)),
                   "graph.input[0].name"});
  cases.push_back(
      {"graph output name",
       modelAround(ProtoBuilder().message(f::graph::kOutput, testing::valueInfo(bad, kFloat, {2}))),
       "graph.output[0].name"});
  cases.push_back({"value_info name",
                   modelAround(ProtoBuilder().message(f::graph::kValueInfo,
                                                      testing::valueInfo(bad, kFloat, {2}))),
                   "graph.value_info[0].name"});
  cases.push_back(
      {"dim_param",
       modelWithInput(ProtoBuilder()
                          .bytes(f::value_info::kName, "x")
                          .message(f::value_info::kType,
                                   ProtoBuilder().message(
                                       f::type::kTensorType,
                                       ProtoBuilder().message(
                                           f::type::kShape,
                                           ProtoBuilder().message(
                                               f::shape::kDim,
                                               ProtoBuilder().bytes(f::shape::kDimParam, bad)))))),
       "graph.input[0](x).type.tensor_type.shape.dim[0].dim_param"});
  cases.push_back({"quantization annotation tensor_name",
                   modelAround(ProtoBuilder().message(f::graph::kQuantizationAnnotation,
                                                      ProtoBuilder().bytes(1, bad))),
                   "graph.quantization_annotation[0].tensor_name"});
  cases.push_back(
      {"opset_import domain",
       ProtoBuilder().message(f::model::kOpsetImport, testing::opsetImport(bad, 1)).str(),
       "opset_import[0].domain"});
  cases.push_back({"function name",
                   ProtoBuilder()
                       .message(f::model::kFunctions, ProtoBuilder().bytes(f::function::kName, bad))
                       .str(),
                   "functions[0].name"});
  cases.push_back(
      {"function node name",
       ProtoBuilder()
           .message(f::model::kFunctions,
                    ProtoBuilder()
                        .bytes(f::function::kName, "fn")
                        .message(f::function::kNode, ProtoBuilder().bytes(f::node::kName, bad)))
           .str(),
       "functions[0](fn).node[0].name"});
  return cases;
}

TEST_F(BadInput, NonUtf8InEveryNameFieldIsRefusedWithItsPath) {
  for (const NameCase& c : nameCases("\xff")) {
    SCOPED_TRACE(c.what);
    expectRefused(c.bytes, {ErrorCode::kMalformed, c.path, "not valid UTF-8"});
    // The field is in the path, so the message says no more than that.
    EXPECT_EQ(parse(c.bytes).model.status().message(), "not valid UTF-8");
  }
}

TEST_F(BadInput, NonUtf8NamesAreAcceptedWhenValidationIsOff) {
  LoadOptions options;
  options.validate_utf8 = false;
  for (const NameCase& c : nameCases("\xff")) {
    SCOPED_TRACE(c.what);
    // Some cases put the node's name before its inputs, so they are not canonical.
    Parsed parsed = expectAccepted(c.bytes, options, /*canonical=*/false);
    EXPECT_TRUE(parsed.model.isOk());
  }
}

TEST_F(BadInput, IllFormedUtf8SequencesInANodeNameAreRefused) {
  const std::vector<std::pair<const char*, std::string>> sequences = {
      {"0xFF", "\xff"},
      {"0xFE", "\xfe"},
      {"lone continuation byte", "\x80"},
      {"overlong '/' in 2 bytes", "\xc0\xaf"},
      {"overlong U+007F in 2 bytes", "\xc1\xbf"},
      {"overlong '/' in 3 bytes", "\xe0\x80\xaf"},
      {"overlong '/' in 4 bytes", "\xf0\x80\x80\xaf"},
      {"surrogate U+D800", "\xed\xa0\x80"},
      {"surrogate U+DFFF", "\xed\xbf\xbf"},
      {"CESU-8 surrogate pair", "\xed\xa0\xbd\xed\xb8\x80"},
      {"U+110000", "\xf4\x90\x80\x80"},
      {"5-byte form", "\xf8\x88\x80\x80\x80"},
      {"truncated 3-byte sequence", "\xe2\x82"},
      {"bad continuation byte", "\xe2\x28\xa1"},
      {"ASCII then a truncated sequence", "conv1\xc3"},
      {"8 ASCII bytes then an overlong form", "abcdefgh\xc0\xaf"},
      {"16 ASCII bytes then a surrogate", "abcdefghijklmnop\xed\xa0\x80"},
  };
  for (const auto& [what, name] : sequences) {
    SCOPED_TRACE(what);
    expectRefused(modelWithNode(ProtoBuilder().bytes(f::node::kName, name)),
                  {ErrorCode::kMalformed, "graph.node[0].name", "not valid UTF-8"});
  }
}

TEST_F(BadInput, WellFormedUtf8NamesAreAccepted) {
  for (std::string name :
       {"caf\xc3\xa9"s, "\xe2\x82\xac"s, "\xf0\x9f\x98\x80"s, "\xed\x9f\xbf"s, "\xee\x80\x80"s,
        "\xef\xbf\xbf"s, "\xf4\x8f\xbf\xbf"s, "abcdefgh\xe2\x82\xac"s}) {
    SCOPED_TRACE(name);
    Parsed parsed = expectAccepted(modelWithNode(ProtoBuilder().bytes(f::node::kName, name)));
    ASSERT_TRUE(parsed.model.isOk());
    EXPECT_EQ(parsed.model->graph->firstNode()->nameOrEmpty(), name);
  }
}

TEST_F(BadInput, NonUtf8InFreeTextAndBytesFieldsIsAccepted) {
  const std::string bad = "\xff\xfe\xc0\xaf";
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"model doc_string", ProtoBuilder().bytes(f::model::kDocString, bad).str()},
      {"producer_name", ProtoBuilder().bytes(f::model::kProducerName, bad).str()},
      {"graph doc_string", modelAround(ProtoBuilder().bytes(f::graph::kDocString, bad))},
      {"node doc_string",
       modelWithNode(ProtoBuilder().bytes(f::node::kName, "add0").bytes(f::node::kDocString, bad))},
      {"attribute s",
       modelWithAttribute(
           ProtoBuilder().bytes(f::attribute::kName, "mode").bytes(f::attribute::kS, bad))},
      {"attribute strings",
       modelWithAttribute(
           ProtoBuilder().bytes(f::attribute::kName, "modes").bytes(f::attribute::kStrings, bad))},
      {"raw_data", modelWithInitializer(tensorW().bytes(f::tensor::kRawData, bad))},
      {"string_data",
       modelWithInitializer(
           ProtoBuilder().bytes(f::tensor::kStringData, bad).bytes(f::tensor::kName, "w"))},
      {"metadata value",
       ProtoBuilder().message(f::model::kMetadataProps, testing::stringEntry("k", bad)).str()},
  };
  for (const auto& [what, bytes] : cases) {
    SCOPED_TRACE(what);
    Parsed parsed = expectAccepted(bytes);
    EXPECT_TRUE(parsed.model.isOk());
  }
}

// ---------------------------------------------------------------------------------------
// Tensor dims

TEST_F(BadInput, NegativeDimIsRefused) {
  std::string bytes =
      modelWithInitializer(tensorW().varint(f::tensor::kDims, static_cast<uint64_t>(int64_t{-1})));
  // The dims are checked once the whole tensor is read: the offset is the tensor's end,
  // which here is the graph's end, where only the opset_import field follows.
  const size_t opset_field =
      ProtoBuilder().message(f::model::kOpsetImport, testing::opsetImport("", 13)).size();
  expectRefused(bytes,
                {ErrorCode::kMalformed, "graph.initializer[0](w).dims", "dims[0] is negative (-1)",
                 static_cast<int64_t>(bytes.size() - opset_field)});
}

TEST_F(BadInput, NegativeDimInAnAttributeTensorIsRefused) {
  std::string bytes = modelWithAttribute(
      ProtoBuilder()
          .bytes(f::attribute::kName, "value")
          .message(
              f::attribute::kT,
              tensorW().packedVarints(f::tensor::kDims, {2, static_cast<uint64_t>(int64_t{-5})})));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.node[0](add0).attribute[0](value).t.dims",
                        "dims[1] is negative (-5)"});
}

TEST_F(BadInput, NegativeDimInASparseInitializerIsRefused) {
  ProtoBuilder values = ProtoBuilder()
                            .varint(f::tensor::kDims, static_cast<uint64_t>(int64_t{-3}))
                            .bytes(f::tensor::kName, "sv");
  std::string bytes = modelAround(ProtoBuilder().message(
      f::graph::kSparseInitializer, ProtoBuilder().message(f::sparse::kValues, values)));
  expectRefused(bytes, {ErrorCode::kMalformed, "graph.sparse_initializer[0](sv).values.dims",
                        "dims[0] is negative (-3)"});
}

TEST_F(BadInput, NegativeDimIsMalformedWhateverTheOtherDims) {
  // A negative size is malformed wherever it stands: a zero does not make it acceptable,
  // and a product that would pass INT64_MAX does not turn it into kLimitExceeded.
  const auto minus1 = static_cast<uint64_t>(int64_t{-1});
  const std::vector<std::pair<std::vector<uint64_t>, std::string>> cases = {
      {{0, minus1}, "dims[1] is negative (-1)"},
      {{minus1, 0}, "dims[0] is negative (-1)"},
      {{kTerabyte, kTerabyte, minus1}, "dims[2] is negative (-1)"},
      {{minus1, kTerabyte, kTerabyte}, "dims[0] is negative (-1)"},
  };
  for (const auto& [dims, message] : cases) {
    SCOPED_TRACE(message);
    expectRefused(modelWithInitializer(tensorW().bytes(f::tensor::kDims, packedDims(dims))),
                  {ErrorCode::kMalformed, "graph.initializer[0](w).dims", message});
  }
}

TEST_F(BadInput, DimsWhoseProductOverflows64BitsAreRefused) {
  std::string bytes = modelWithInitializer(tensorW()
                                               .varint(f::tensor::kDims, uint64_t{1} << 32)
                                               .varint(f::tensor::kDims, uint64_t{1} << 32));
  expectRefused(bytes, {ErrorCode::kLimitExceeded, "graph.initializer[0](w).dims",
                        "the product of the dims passes 9223372036854775807 elements"});
}

TEST_F(BadInput, DimsWhoseProductPassesInt64MaxAreRefused) {
  // 2^62 * 2 = 2^63 fits in uint64 but not in int64.
  std::string bytes = modelWithInitializer(
      tensorW().varint(f::tensor::kDims, uint64_t{1} << 62).varint(f::tensor::kDims, 2));
  expectRefused(bytes, {ErrorCode::kLimitExceeded, "graph.initializer[0](w).dims",
                        "the product of the dims passes 9223372036854775807 elements"});
}

TEST_F(BadInput, DimsWhoseProductIsExactlyInt64MaxAreAcceptedAndOneMoreIsNot) {
  // INT64_MAX = 7 * 1317624576693539401 exactly.
  constexpr uint64_t kSeventh = static_cast<uint64_t>(INT64_MAX) / 7;
  static_assert(kSeventh * 7 == static_cast<uint64_t>(INT64_MAX));
  Parsed parsed = expectAccepted(modelWithInitializer(
      ProtoBuilder().packedVarints(f::tensor::kDims, {7, kSeventh}).bytes(f::tensor::kName, "w")));
  ASSERT_TRUE(parsed.model.isOk());
  ASSERT_EQ(parsed.model->graph->initializers[0]->dims.size(), 2u);
  EXPECT_EQ(parsed.model->graph->initializers[0]->dims[1], static_cast<int64_t>(kSeventh));
  // 7 * (kSeventh + 1) = INT64_MAX + 7.
  expectRefused(modelWithInitializer(tensorW().packedVarints(f::tensor::kDims, {7, kSeventh + 1})),
                {ErrorCode::kLimitExceeded, "graph.initializer[0](w).dims", "passes"});
}

TEST_F(BadInput, AZeroDimMakesTheTensorEmptyWhereverItStands) {
  // Two dims of 2^40 multiply past INT64_MAX, but with a zero anywhere the tensor has no
  // elements: it is accepted whatever the order, not refused in some orders only.
  const std::vector<std::vector<uint64_t>> orders = {
      {kTerabyte, kTerabyte, 0}, {0, kTerabyte, kTerabyte}, {kTerabyte, 0, kTerabyte}};
  for (const auto& dims : orders) {
    SCOPED_TRACE(::testing::PrintToString(dims));
    // dims (field 1) before name (field 8): canonical, so written back byte-identical.
    Parsed parsed = expectAccepted(modelWithInitializer(
        ProtoBuilder().bytes(f::tensor::kDims, packedDims(dims)).bytes(f::tensor::kName, "w")));
    ASSERT_TRUE(parsed.model.isOk());
    const Tensor& tensor = *parsed.model->graph->initializers[0];
    ASSERT_EQ(tensor.dims.size(), dims.size());
    for (size_t i = 0; i < dims.size(); ++i) {
      EXPECT_EQ(tensor.dims[i], static_cast<int64_t>(dims[i]));
    }
  }
}

TEST_F(BadInput, DimOfInt64MaxAloneIsAccepted) {
  std::string bytes =
      modelWithInitializer(ProtoBuilder()
                               .varint(f::tensor::kDims, static_cast<uint64_t>(INT64_MAX))
                               .bytes(f::tensor::kName, "w"));
  Parsed parsed = expectAccepted(bytes);
  ASSERT_TRUE(parsed.model.isOk());
  EXPECT_EQ(parsed.model->graph->initializers[0]->dims[0], INT64_MAX);
}

// ---------------------------------------------------------------------------------------
// External data

TEST_F(BadInput, ExternalDataInsideTheFolderIsAccepted) {
  // The baseline the external cases vary: w.bin holds bytes 1..8, the tensor takes 5..8.
  writeFile(modelDir() / "w.bin", "\x01\x02\x03\x04\x05\x06\x07\x08"s);
  std::string bytes = modelWithExternal({{"location", "w.bin"}, {"offset", "4"}, {"length", "4"}});
  Result<Model> loaded = loadModel(writeModel(bytes));
  ASSERT_TRUE(loaded.isOk()) << loaded.status().toString();
  const Tensor& tensor = *loaded->graph->initializers[0];
  ASSERT_TRUE(tensor.rare().external_bytes.has_value());
  EXPECT_EQ(*tensor.rare().external_bytes, "\x05\x06\x07\x08"s);
}

TEST_F(BadInput, ExternalLocationLeavingTheFolder) {
  writeFile(outsideDir() / "x", "secret!!");
  expectExternalRefused(modelWithExternal({{"location", "../outside/x"}}), ErrorCode::kUnsafePath,
                        "leaves the model's folder");
  expectExternalRefused(modelWithExternal({{"location", "../x"}}), ErrorCode::kUnsafePath,
                        "leaves the model's folder");
}

TEST_F(BadInput, ExternalLocationAbsolute) {
  expectExternalRefused(modelWithExternal({{"location", "/etc/passwd"}}), ErrorCode::kUnsafePath,
                        "absolute path");
}

TEST_F(BadInput, ExternalLocationClimbingOutThroughASubfolder) {
  std::filesystem::create_directory(modelDir() / "sub");
  expectExternalRefused(modelWithExternal({{"location", "sub/../../outside/x"}}),
                        ErrorCode::kUnsafePath, "leaves the model's folder");
}

TEST_F(BadInput, ExternalLocationThroughASymlinkOutOfTheFolder) {
  writeFile(outsideDir() / "secret.bin", "secret!!");
  std::filesystem::create_symlink(outsideDir() / "secret.bin", modelDir() / "link.bin");
  expectExternalRefused(modelWithExternal({{"location", "link.bin"}}), ErrorCode::kUnsafePath,
                        "symbolic link");
  std::filesystem::create_directory_symlink(outsideDir(), modelDir() / "linkdir");
  expectExternalRefused(modelWithExternal({{"location", "linkdir/secret.bin"}}),
                        ErrorCode::kUnsafePath, "symbolic link");
}

TEST_F(BadInput, ExternalFileWithASecondHardLink) {
  writeFile(modelDir() / "data.bin", "12345678");
  std::filesystem::create_hard_link(modelDir() / "data.bin", outsideDir() / "alias.bin");
  expectExternalRefused(modelWithExternal({{"location", "data.bin"}}), ErrorCode::kUnsafePath,
                        "hard links");
}

TEST_F(BadInput, ExternalOffsetPastTheEndOfTheFile) {
  expectExternalRefused(modelWithExternal({{"location", "w.bin"}, {"offset", "100"}}),
                        ErrorCode::kMalformed, "(offset 100, length to the end) lies outside");
}

TEST_F(BadInput, ExternalOffsetPlusLengthWrappingAround2To64) {
  // 8 + (2^64 - 8) wraps to 0; (2^64 - 1) + 2 wraps to 1.
  expectExternalRefused(
      modelWithExternal(
          {{"location", "w.bin"}, {"offset", "8"}, {"length", "18446744073709551608"}}),
      ErrorCode::kMalformed, "lies outside");
  expectExternalRefused(
      modelWithExternal(
          {{"location", "w.bin"}, {"offset", "18446744073709551615"}, {"length", "2"}}),
      ErrorCode::kMalformed, "lies outside");
}

TEST_F(BadInput, ExternalLengthPastTheEndOfTheFile) {
  expectExternalRefused(
      modelWithExternal({{"location", "w.bin"}, {"offset", "4"}, {"length", "5"}}),
      ErrorCode::kMalformed, "(offset 4, length 5) lies outside");
}

TEST_F(BadInput, ExternalOffsetsThatAreNotDecimal) {
  for (std::string_view offset :
       {"12abc", "-1", " 5", "5 ", "", "+5", "0x10", "1e3", "18446744073709551616"}) {
    SCOPED_TRACE(offset);
    expectExternalRefused(modelWithExternal({{"location", "w.bin"}, {"offset", offset}}),
                          ErrorCode::kMalformed, "is not a decimal number");
  }
}

TEST_F(BadInput, ExternalLengthThatIsNotDecimal) {
  expectExternalRefused(modelWithExternal({{"location", "w.bin"}, {"length", "eight"}}),
                        ErrorCode::kMalformed, "length \"eight\" is not a decimal number");
}

TEST_F(BadInput, ExternalDataWithoutALocation) {
  expectExternalRefused(modelWithExternal({{"offset", "0"}, {"length", "8"}}),
                        ErrorCode::kMalformed, "without a location");
}

TEST_F(BadInput, ExternalDataFileMissing) {
  expectExternalRefused(modelWithExternal({{"location", "absent.bin"}}), ErrorCode::kNotFound,
                        "does not exist");
}

TEST_F(BadInput, ExternalLocationNamingADirectory) {
  std::filesystem::create_directory(modelDir() / "sub");
  expectExternalRefused(modelWithExternal({{"location", "sub"}}), ErrorCode::kUnsafePath,
                        "is a directory");
}

TEST_F(BadInput, ExternalLocationOrtMemAddr) {
  expectExternalRefused(
      modelWithExternal({{"location", "_ORT_MEM_ADDR_"}, {"offset", "140737488355328"}}),
      ErrorCode::kUnsafePath, "_ORT_MEM_ADDR_");
}

TEST_F(BadInput, ExternalLocationOtherUnsafeForms) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "is empty"},
      {"w.bin\0/../../etc/passwd"s, "NUL"},
      {"C:\\Windows\\win.ini", "drive letter"},
      {"..\\..\\secret", "backslash"},
      {"./", "names a folder"},
  };
  for (const auto& [location, why] : cases) {
    SCOPED_TRACE(why);
    expectExternalRefused(modelWithExternal({{"location", location}}), ErrorCode::kUnsafePath, why);
  }
}

TEST_F(BadInput, ExternalTensorInAnAttributeIsCheckedToo) {
  std::string bytes = modelWithAttribute(
      ProtoBuilder()
          .bytes(f::attribute::kName, "value")
          .message(f::attribute::kT, externalTensor({{"location", "../outside/x"}})));
  expectExternalRefused(bytes, ErrorCode::kUnsafePath, "leaves the model's folder",
                        "graph.node[0](add0).attribute[0](value).t");
}

TEST_F(BadInput, ExternalDataWithoutAFolderIsRefused) {
  // parseModel with no folder has nowhere to resolve locations against.
  Parsed parsed = parse(modelWithExternal({{"location", "w.bin"}}));
  ASSERT_FALSE(parsed.model.isOk());
  EXPECT_EQ(parsed.model.status().code(), ErrorCode::kInvalidArgument)
      << parsed.model.status().toString();
  EXPECT_TRUE(contains(parsed.model.status().message(), "not loaded from a folder"));
}

TEST_F(BadInput, UnsafeExternalLocationsAreNotTouchedWhenExternalDataIsNotLoaded) {
  LoadOptions options;
  options.load_external_data = false;
  Parsed parsed =
      expectAccepted(modelWithExternal({{"location", "../outside/x"}, {"offset", "-1"}}), options);
  ASSERT_TRUE(parsed.model.isOk());
  EXPECT_FALSE(parsed.model->graph->initializers[0]->rare().external_bytes.has_value());
}

// ---------------------------------------------------------------------------------------
// loadModel on paths that are not model files

TEST_F(BadInput, LoadModelOnAMissingPath) {
  Result<Model> loaded = loadModel((modelDir() / "absent.onnx").string());
  ASSERT_FALSE(loaded.isOk());
  EXPECT_EQ(loaded.status().code(), ErrorCode::kNotFound) << loaded.status().toString();
  EXPECT_TRUE(contains(loaded.status().message(), "absent.onnx"));

  Result<Model> through_missing = loadModel((modelDir() / "nope" / "model.onnx").string());
  ASSERT_FALSE(through_missing.isOk());
  EXPECT_EQ(through_missing.status().code(), ErrorCode::kNotFound);
}

TEST_F(BadInput, LoadModelOnADirectory) {
  Result<Model> loaded = loadModel(modelDir().string());
  ASSERT_FALSE(loaded.isOk());
  EXPECT_EQ(loaded.status().code(), ErrorCode::kInvalidArgument) << loaded.status().toString();
  EXPECT_TRUE(contains(loaded.status().message(), "directory")) << loaded.status().toString();
}

TEST_F(BadInput, LoadModelThroughAFileAsAFolder) {
  std::string file = writeModel(testing::validModelBytes());
  Result<Model> loaded = loadModel(file + "/model.onnx");
  ASSERT_FALSE(loaded.isOk());
  EXPECT_EQ(loaded.status().code(), ErrorCode::kNotFound) << loaded.status().toString();
}

// ---------------------------------------------------------------------------------------
// Regression tests for decoder bugs found by this suite, now fixed.

// An external-data error named the tensor as "tensor(w)", which is not a path into the
// model. It now says where the tensor is, as a decoding error in the same tensor does.
TEST_F(BadInput, ExternalDataErrorPathIsTheTensorsPlaceInTheModel) {
  for (const TensorPlace& place : tensorPlaces(/*named_lists=*/false)) {
    SCOPED_TRACE(place.path);
    expectExternalRefusedAt(place);
  }
}

// A wire error inside a numeric field (varint, fixed-size or packed) named the field
// nowhere: string and sub-message fields added their segment (".raw_data", ".input",
// "graph"), these did not, and the message ("a varint runs past the end of its message")
// did not say either. Now the field is the last path segment, as for strings.
TEST_F(BadInput, WireErrorsInNumericFieldsEndTheirPathWithTheField) {
  auto attribute = [](const ProtoBuilder& rest) {
    return modelWithAttribute(ProtoBuilder().bytes(f::attribute::kName, "alpha").raw(rest.str()));
  };
  const std::string attribute_path = "graph.node[0](add0).attribute[0](alpha)";
  const std::vector<std::pair<std::string, Want>> cases = {
      {ProtoBuilder().tag(f::model::kIrVersion, testing::wire_type::kVarint).raw("\x80").str(),
       {ErrorCode::kMalformed, "ir_version", "a varint runs past the end", 1}},
      {ProtoBuilder().varint(f::model::kModelVersion, 1).tag(f::model::kIrVersion, 1).str(),
       {ErrorCode::kMalformed, "ir_version", "wire type fixed64 where ir_version needs varint", 3}},
      {attribute(ProtoBuilder().tag(f::attribute::kI, testing::wire_type::kVarint).raw("\x80")),
       {ErrorCode::kMalformed, attribute_path + ".i", "a varint runs past the end"}},
      {attribute(ProtoBuilder().tag(f::attribute::kF, testing::wire_type::kFixed32).raw("\x80")),
       {ErrorCode::kMalformed, attribute_path + ".f", "a 4-byte value runs past the end"}},
      {attribute(ProtoBuilder().bytes(f::attribute::kInts, "\x01\x80")),
       {ErrorCode::kMalformed, attribute_path + ".ints", "a varint runs past the end"}},
      {attribute(ProtoBuilder().tag(f::attribute::kInts, testing::wire_type::kVarint).raw("\xff")),
       {ErrorCode::kMalformed, attribute_path + ".ints", "a varint runs past the end"}},
      {attribute(ProtoBuilder().fixed64(f::attribute::kInts, 1)),
       {ErrorCode::kMalformed, attribute_path + ".ints",
        "wire type fixed64 where ints needs length-delimited"}},
      {attribute(ProtoBuilder().bytesWithLength(f::attribute::kFloats, 9, "\x01")),
       {ErrorCode::kMalformed, attribute_path + ".floats", "length 9 runs past the end"}},
      {attribute(
           ProtoBuilder().tag(f::attribute::kFloats, testing::wire_type::kFixed32).raw("\x01")),
       {ErrorCode::kMalformed, attribute_path + ".floats", "a 4-byte value runs past the end"}},
      {attribute(ProtoBuilder().varint(f::attribute::kFloats, 1)),
       {ErrorCode::kMalformed, attribute_path + ".floats",
        "wire type varint where floats needs length-delimited"}},
      {attribute(ProtoBuilder().tag(f::attribute::kType, testing::wire_type::kVarint).raw("\x80")),
       {ErrorCode::kMalformed, attribute_path + ".type", "a varint runs past the end"}},
      {modelWithInitializer(tensorW().bytesWithLength(f::tensor::kFloatData, 9, "\x01")),
       {ErrorCode::kMalformed, "graph.initializer[0](w).float_data", "length 9 runs past the end"}},
      {modelWithInitializer(
           tensorW().tag(f::tensor::kFloatData, testing::wire_type::kFixed32).raw("\x01")),
       {ErrorCode::kMalformed, "graph.initializer[0](w).float_data",
        "a 4-byte value runs past the end"}},
      {modelWithInitializer(
           tensorW().tag(f::tensor::kDoubleData, testing::wire_type::kFixed64).raw("\x01")),
       {ErrorCode::kMalformed, "graph.initializer[0](w).double_data",
        "an 8-byte value runs past the end"}},
      {modelWithInitializer(
           tensorW().tag(f::tensor::kInt64Data, testing::wire_type::kVarint).raw("\xff")),
       {ErrorCode::kMalformed, "graph.initializer[0](w).int64_data", "a varint runs past the end"}},
      {modelWithInitializer(tensorW().bytesWithLength(f::tensor::kDims, 9, "\x01")),
       {ErrorCode::kMalformed, "graph.initializer[0](w).dims", "length 9 runs past the end"}},
      {modelWithInitializer(
           tensorW().tag(f::tensor::kDims, testing::wire_type::kVarint).raw("\xff")),
       {ErrorCode::kMalformed, "graph.initializer[0](w).dims", "a varint runs past the end"}},
      {modelWithInitializer(
           tensorW().tag(f::tensor::kDataType, testing::wire_type::kVarint).raw("\x80")),
       {ErrorCode::kMalformed, "graph.initializer[0](w).data_type", "a varint runs past the end"}},
      {modelWithInitializer(
           tensorW().tag(f::tensor::kDataLocation, testing::wire_type::kVarint).raw("\x80")),
       {ErrorCode::kMalformed, "graph.initializer[0](w).data_location",
        "a varint runs past the end"}},
      {modelAround(ProtoBuilder().message(
           f::graph::kSparseInitializer,
           ProtoBuilder().tag(f::sparse::kDims, testing::wire_type::kVarint).raw("\x80"))),
       {ErrorCode::kMalformed, "graph.sparse_initializer[0].dims", "a varint runs past the end"}},
      {modelWithInput(
           ProtoBuilder()
               .bytes(f::value_info::kName, "x")
               .message(f::value_info::kType,
                        ProtoBuilder().message(f::type::kTensorType,
                                               ProtoBuilder().fixed32(f::type::kElemType, 1)))),
       {ErrorCode::kMalformed, "graph.input[0](x).type.tensor_type.elem_type",
        "wire type fixed32 where elem_type needs varint"}},
      {modelWithInput(ProtoBuilder()
                          .bytes(f::value_info::kName, "x")
                          .message(f::value_info::kType,
                                   ProtoBuilder().message(
                                       f::type::kTensorType,
                                       ProtoBuilder().message(
                                           f::type::kShape,
                                           ProtoBuilder().message(
                                               f::shape::kDim, ProtoBuilder()
                                                                   .tag(f::shape::kDimValue,
                                                                        testing::wire_type::kVarint)
                                                                   .raw("\x80")))))),
       {ErrorCode::kMalformed, "graph.input[0](x).type.tensor_type.shape.dim[0].dim_value",
        "a varint runs past the end"}},
  };
  for (const auto& [bytes, want] : cases) {
    SCOPED_TRACE(want.path + ": " + want.message);
    expectRefused(bytes, want);
  }
}

// A sub-message field with the wrong wire type ends with the segment of that sub-message,
// as its caller names it (the list index included), and no deeper.
TEST_F(BadInput, SubMessagesWithTheWrongWireTypeEndTheirPathWithTheirSegment) {
  const std::vector<std::pair<std::string, Want>> cases = {
      {ProtoBuilder().varint(f::model::kGraph, 1).str(),
       {ErrorCode::kMalformed, "graph", "wire type varint where graph needs length-delimited", 1}},
      {ProtoBuilder().fixed32(f::model::kOpsetImport, 1).str(),
       {ErrorCode::kMalformed, "opset_import[0]",
        "wire type fixed32 where opset_import needs length-delimited", 1}},
      {modelAround(ProtoBuilder().varint(f::graph::kNode, 1)),
       {ErrorCode::kMalformed, "graph.node[0]",
        "wire type varint where node needs length-delimited"}},
      {modelAround(ProtoBuilder()
                       .message(f::graph::kNode, testing::validNode())
                       .fixed64(f::graph::kNode, 1)),
       {ErrorCode::kMalformed, "graph.node[1]",
        "wire type fixed64 where node needs length-delimited"}},
      {modelAround(ProtoBuilder().varint(f::graph::kInitializer, 1)),
       {ErrorCode::kMalformed, "graph.initializer[0]",
        "wire type varint where initializer needs length-delimited"}},
      {modelWithAttribute(
           ProtoBuilder().bytes(f::attribute::kName, "value").varint(f::attribute::kT, 1)),
       {ErrorCode::kMalformed, "graph.node[0](add0).attribute[0](value).t",
        "wire type varint where t needs length-delimited"}},
      // Key/value entry lists are sub-messages too, with the wrong wire type or a length
      // past the end.
      {ProtoBuilder().varint(f::model::kMetadataProps, 1).str(),
       {ErrorCode::kMalformed, "metadata_props[0]",
        "wire type varint where metadata_props needs length-delimited", 1}},
      {ProtoBuilder().bytesWithLength(f::model::kMetadataProps, 9, "\x0a").str(),
       {ErrorCode::kMalformed, "metadata_props[0]", "length 9 runs past the end", 1}},
      {modelWithInitializer(tensorW().fixed32(f::tensor::kExternalData, 1)),
       {ErrorCode::kMalformed, "graph.initializer[0](w).external_data[0]",
        "wire type fixed32 where external_data needs length-delimited"}},
  };
  for (const auto& [bytes, want] : cases) {
    SCOPED_TRACE(want.path + ": " + want.message);
    expectRefused(bytes, want);
  }
}

// ---------------------------------------------------------------------------------------
// Decoder bugs: these fail until the decoder is fixed.

// An external-data error names a tensor in a named list entry without the entry's name
// ("graph.sparse_initializer[0].values"), where every decoding error in the same tensor
// names it ("graph.sparse_initializer[0](w).values.dims"): the same tensor has two paths.
// tensorPath() (src/ir/walk.cc) writes segment("tensors", i), segment("graphs", i) and
// segment("sparse_initializer", i) without the name the decoder's within() adds.
TEST_F(BadInput, ExternalDataErrorPathNamesListEntriesAsTheDecoderDoes) {
  for (const TensorPlace& place : tensorPlaces(/*named_lists=*/true)) {
    SCOPED_TRACE(place.path);
    expectExternalRefusedAt(place);
  }
}

}  // namespace
}  // namespace onyx
