// The onyx tool as scripts use it: exit statuses, outputs, and files it writes.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "onyx/serde/model_io.h"
#include "support/model_equal.h"
#include "support/proto_builder.h"
#include "support/tool_testing.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

const std::string kExample = ONYX_SOURCE_DIR "/examples/tiny_cnn.onnx";

using testing::ToolRun;

ToolRun onyx(const std::string& arguments) {
  return testing::runOnyx(arguments, testing::Stderr::kMerged);
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-cli-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The example converted into dir_/m.onnx with its tensors of 64 bytes or more in w.bin.
  fs::path exampleWithExternalData() {
    fs::path model = dir_ / "m.onnx";
    ToolRun run = onyx("convert " + kExample + " " + model.string() + kExternalOptions);
    EXPECT_EQ(run.status, 0) << run.out;
    return model;
  }

  static constexpr const char* kExternalOptions = " --external-data w.bin --size-threshold 64";
  fs::path dir_;
};

TEST_F(Cli, InfoSummarisesTheExample) {
  ToolRun run = onyx("info " + kExample);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("ir_version:   8"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("image: float[N,3,32,32]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("probabilities: float[N,10]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Conv                     2"), std::string::npos) << run.out;
}

TEST_F(Cli, InfoJsonIsMachineReadable) {
  ToolRun run = onyx("info --json " + kExample);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("\"node_count\": 9"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"Relu\": 2"), std::string::npos) << run.out;
}

TEST_F(Cli, InfoCostCountsTheExamplesOperationsOnceItsBatchIsSized) {
  ToolRun unsized = onyx("info --cost " + kExample);
  EXPECT_EQ(unsized.status, 0) << unsized.out;
  EXPECT_NE(unsized.out.find("not counted (size the inputs' named dimensions with --dim"),
            std::string::npos)
      << unsized.out;
  ToolRun run = onyx("info --cost --dim N=1 " + kExample);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("op type"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("not counted"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Conv "), std::string::npos) << run.out;
  ToolRun json = onyx("info --cost --json --dim N=2 " + kExample);
  EXPECT_EQ(json.status, 0) << json.out;
  EXPECT_NE(json.out.find("\"uncounted_nodes\": 0"), std::string::npos) << json.out;
  ToolRun misspelt = onyx("info --cost --dim batch=1 " + kExample);
  EXPECT_EQ(misspelt.status, 2);
  EXPECT_NE(misspelt.out.find("no graph input has a dimension named 'batch'"), std::string::npos)
      << misspelt.out;
}

TEST_F(Cli, UnreadableInputExitsTwoAndSaysWhere) {
  fs::path bad = dir_ / "bad.onnx";
  std::ofstream(bad, std::ios::binary) << std::string("\x3a\xff\xff\xff\x0f", 5);
  ToolRun run = onyx("info " + bad.string());
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.out.find("graph"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("at byte"), std::string::npos) << run.out;
  EXPECT_EQ(onyx("info " + (dir_ / "missing.onnx").string()).status, 2);
  EXPECT_EQ(onyx("info").status, 2);
  EXPECT_EQ(onyx("no-such-command").status, 2);
}

TEST_F(Cli, EveryCommandReadsTheTextSyntaxAndOptimizeAndInferWriteIt) {
  fs::path text = dir_ / "m.onnxtxt";
  {
    std::ofstream out(text);
    out << R"(<ir_version: 8, opset_import: ["" : 17]>
      g (float[2] x) => (float[2] y) {
        a = Identity (x)
        y = Relu (a)
      })";
  }
  for (const char* command : {"info", "print", "check", "infer", "run"}) {
    ToolRun run = onyx(std::string(command) + " " + text.string());
    EXPECT_EQ(run.status, 0) << command << ": " << run.out;
  }
  fs::path optimized = dir_ / "optimized.onnxtxt";
  ToolRun run = onyx("optimize " + text.string() + " " + optimized.string());
  ASSERT_EQ(run.status, 0) << run.out;
  std::string written = readFile(optimized);
  EXPECT_NE(written.find("y = Relu"), std::string::npos) << written;
  EXPECT_EQ(written.find("Identity"), std::string::npos) << written;
  fs::path inferred = dir_ / "inferred.onnxtxt";
  run = onyx("infer " + text.string() + " " + inferred.string());
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(readFile(inferred).find("float[2] a"), std::string::npos) << readFile(inferred);
}

TEST_F(Cli, ConvertRoundTripIsByteIdentical) {
  fs::path out = dir_ / "copy.onnx";
  ToolRun run = onyx("convert " + kExample + " " + out.string());
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(readFile(out), readFile(kExample));
}

TEST_F(Cli, ExternalDataIsAlignedAndInlineBringsItBack) {
  fs::path out = dir_ / "ext.onnx";
  ToolRun run = onyx("convert " + kExample + " " + out.string() +
                     " --external-data weights.bin --size-threshold 64 --align 4096");
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_TRUE(fs::exists(dir_ / "weights.bin"));
  auto model = loadModel(out.string());
  ASSERT_TRUE(model) << model.status().toString();
  size_t external = 0;
  for (const Tensor* tensor : model->graph->initializers) {
    if (!tensor->isExternal()) continue;
    ++external;
    EXPECT_EQ(*tensor->externalValue("location"), "weights.bin");
    uint64_t offset = std::stoull(std::string(*tensor->externalValue("offset")));
    uint64_t length = std::stoull(std::string(*tensor->externalValue("length")));
    if (length >= 4096) {
      EXPECT_EQ(offset % 4096, 0u);
    }
    ASSERT_TRUE(tensor->rare().external_bytes.has_value());
    EXPECT_EQ(tensor->rare().external_bytes->size(), length);
  }
  EXPECT_EQ(external, 5u);  // fc.b (40 bytes) is under the threshold and stays inline

  fs::path back = dir_ / "back.onnx";
  run = onyx("convert " + out.string() + " " + back.string() + " --inline");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(readFile(back), readFile(kExample));
}

TEST_F(Cli, ResavingExternalDataNeverGrowsTheDataFile) {
  fs::path model = exampleWithExternalData();
  std::string options = kExternalOptions;
  auto first = fs::file_size(dir_ / "w.bin");
  for (int i = 0; i < 3; ++i) {
    ToolRun run = onyx("convert " + model.string() + " " + model.string() + options);
    ASSERT_EQ(run.status, 0) << run.out;
    EXPECT_EQ(fs::file_size(dir_ / "w.bin"), first);
  }
  // Kept where it is: the model and its data survive a plain re-save in place, too.
  ASSERT_EQ(onyx("convert " + model.string() + " " + model.string()).status, 0);
  EXPECT_EQ(fs::file_size(dir_ / "w.bin"), first);
  EXPECT_TRUE(loadModel(model.string()));
}

TEST_F(Cli, ExternalDataFollowsTheModelToAnotherFolder) {
  fs::path model = exampleWithExternalData();
  fs::create_directories(dir_ / "elsewhere");
  fs::path moved = dir_ / "elsewhere" / "m.onnx";
  ToolRun run = onyx("convert " + model.string() + " " + moved.string());
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(readFile(dir_ / "elsewhere" / "w.bin"), readFile(dir_ / "w.bin"));
  EXPECT_EQ(readFile(moved), readFile(model));
}

TEST_F(Cli, InfoWorksWithoutTheExternalDataFiles) {
  fs::path model = exampleWithExternalData();
  fs::remove(dir_ / "w.bin");
  ToolRun run = onyx("info " + model.string());
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("initializers: 6 (40 B inline, 21.1 KiB external)"), std::string::npos)
      << run.out;
  // Converting needs the data, and says which file is missing.
  ToolRun convert = onyx("convert " + model.string() + " " + (dir_ / "n.onnx").string());
  EXPECT_EQ(convert.status, 2);
  EXPECT_NE(convert.out.find("w.bin"), std::string::npos) << convert.out;
}

TEST_F(Cli, OutputIsTheSameBytesEveryTime) {
  for (const char* folder : {"a", "b"}) {
    fs::create_directories(dir_ / folder);
    ASSERT_EQ(
        onyx("convert " + kExample + " " + (dir_ / folder / "m.onnx").string() + kExternalOptions)
            .status,
        0);
  }
  EXPECT_EQ(readFile(dir_ / "a" / "m.onnx"), readFile(dir_ / "b" / "m.onnx"));
  EXPECT_EQ(readFile(dir_ / "a" / "w.bin"), readFile(dir_ / "b" / "w.bin"));
}

TEST_F(Cli, ConvertRefusesAnUnsafeExternalDataPath) {
  ToolRun run = onyx("convert " + kExample + " " + (dir_ / "m.onnx").string() +
                     " --external-data ../escape.bin");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.out.find("leaves the model's folder"), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists(dir_.parent_path() / "escape.bin"));
  EXPECT_FALSE(fs::exists(dir_ / "m.onnx"));
}

TEST_F(Cli, PrintWritesTheTextSyntaxToStdout) {
  ToolRun run = onyx("print " + kExample);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out.rfind("<\n  ir_version: 8,\n  opset_import: [\"\" : 13],", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("tiny_cnn (float[N,3,32,32] image) => (float[N,10] probabilities)"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  [conv1] c1 = Conv <kernel_shape: ints = [3, 3], pads: ints = [1, 1, "
                         "1, 1]> (image, \"conv1.w\", \"conv1.b\")\n"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("# lost"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("cannot hold"), std::string::npos) << run.out;
}

TEST_F(Cli, PrintShowsExternalReferencesWithoutTheDataFiles) {
  fs::path model = exampleWithExternalData();
  fs::remove(dir_ / "w.bin");
  ToolRun run = onyx("print " + model.string());
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("float[16,3,3,3] \"conv1.w\" = [\"location\": \"w.bin\", \"offset\": "
                         "\"0\", \"length\": \"1728\"]"),
            std::string::npos)
      << run.out;
}

TEST_F(Cli, PrintMarksWhatTheTextCannotHoldAndSaysSo) {
  namespace field = testing::field;
  testing::ProtoBuilder node = testing::validNode();
  node.bytes(field::node::kDocString, "adds");
  testing::ProtoBuilder graph;
  graph.message(field::graph::kNode, node).bytes(field::graph::kName, "g");
  fs::path path = dir_ / "doc.onnx";
  std::ofstream(path, std::ios::binary) << testing::modelWithGraph(graph).str();
  ToolRun run = onyx("print " + path.string());
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("  # lost: graph.node[0](add0).doc_string: adds\n  [add0] y = Gemm"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("the text syntax cannot hold 1 part of"), std::string::npos) << run.out;
}

TEST_F(Cli, PrintOfAnUnreadableModelExitsTwo) {
  fs::path bad = dir_ / "bad.onnx";
  std::ofstream(bad, std::ios::binary) << std::string("\x3a\xff\xff\xff\x0f", 5);
  ToolRun run = onyx("print " + bad.string());
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.out.find("cannot read"), std::string::npos) << run.out;
  EXPECT_EQ(onyx("print " + (dir_ / "missing.onnx").string()).status, 2);
  EXPECT_EQ(onyx("print").status, 2);
}

}  // namespace
TEST_F(Cli, ConvertToTextAndBackGivesTheSameModel) {
  fs::path text = dir_ / "m.onnxtxt";
  fs::path back = dir_ / "back.onnx";
  ToolRun to_text = onyx("convert " + kExample + " " + text.string());
  ASSERT_EQ(to_text.status, 0) << to_text.out;
  EXPECT_EQ(readFile(text), onyx("print --weights=full " + kExample).out);
  // By default print elides what a reader would scroll past: the weights' elements.
  std::string elided = onyx("print " + kExample).out;
  EXPECT_NE(elided.find(R"(float[16,3,3,3] "conv1.w" = {0.017900158, )"), std::string::npos);
  EXPECT_NE(elided.find(", ... 424 more}"), std::string::npos);
  EXPECT_LT(elided.size() * 10, readFile(text).size());
  ToolRun to_binary = onyx("convert " + text.string() + " " + back.string());
  ASSERT_EQ(to_binary.status, 0) << to_binary.out;
  auto original = loadModel(kExample);
  auto converted = loadModel(back.string());
  ASSERT_TRUE(original.isOk() && converted.isOk());
  testing::ModelEqualOptions options;
  options.ignore_text_losses = true;
  auto difference = testing::firstDifference(*original, *converted, options);
  EXPECT_FALSE(difference.has_value()) << difference->toString();
}

TEST_F(Cli, ConvertToTextRefusesToDropWhatTheSyntaxCannotHoldUnlessLossy) {
  namespace field = testing::field;
  testing::ProtoBuilder node = testing::validNode();
  node.bytes(field::node::kDocString, "adds");
  testing::ProtoBuilder graph;
  graph.message(field::graph::kNode, node).bytes(field::graph::kName, "g");
  fs::path model = dir_ / "doc.onnx";
  std::ofstream(model, std::ios::binary) << testing::modelWithGraph(graph).str();
  fs::path text = dir_ / "doc.txt";
  ToolRun refused = onyx("convert " + model.string() + " " + text.string());
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.out.find("graph.node[0](add0).doc_string"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("--lossy"), std::string::npos) << refused.out;
  EXPECT_FALSE(fs::exists(text));
  ToolRun lossy = onyx("convert " + model.string() + " " + text.string() + " --lossy");
  EXPECT_EQ(lossy.status, 0) << lossy.out;
  EXPECT_NE(readFile(text).find("[add0] y = Gemm"), std::string::npos);
}

TEST_F(Cli, ConvertOfABadTextSaysWhereAndExitsTwo) {
  fs::path text = dir_ / "bad.onnxtxt";
  std::ofstream(text) << "<ir_version: 8>\ng (float[2] x) => (float[2] y) {\n  y = Relu(x\n}\n";
  ToolRun run = onyx("convert " + text.string() + " " + (dir_ / "out.onnx").string());
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.out.find("line 4, column 1"), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists(dir_ / "out.onnx"));
}

// The same model with its nodes in file order (kSortedText) and out of it (kUnsortedText):
// the main graph reads 't' before its node, and the Loop body 'q' before its node.
constexpr const char* kSortedText = R"(<ir_version: 8, opset_import: ["" : 16]>
g (float[2] x, bool c) => (float[2] y, float[2] z) {
  [neg] t = Neg(x)
  [loop] z = Loop ("", c, t) <body = b (int64 i, bool d, float[2] v) => (bool e, float[2] w) {
    e = Identity(d)
    q = Abs(v)
    w = Add(q, t)
  }>
  [relu] y = Relu(t)
}
)";
constexpr const char* kUnsortedText = R"(<ir_version: 8, opset_import: ["" : 16]>
g (float[2] x, bool c) => (float[2] y, float[2] z) {
  [loop] z = Loop ("", c, t) <body = b (int64 i, bool d, float[2] v) => (bool e, float[2] w) {
    e = Identity(d)
    w = Add(q, t)
    q = Abs(v)
  }>
  [relu] y = Relu(t)
  [neg] t = Neg(x)
}
)";

TEST_F(Cli, ConvertSortRepairsTheNodeOrderAndChangesNothingElse) {
  std::ofstream(dir_ / "unsorted.txt") << kUnsortedText;
  std::ofstream(dir_ / "sorted.txt") << kSortedText;
  const std::string unsorted = (dir_ / "unsorted.onnx").string();
  const std::string expected = (dir_ / "expected.onnx").string();
  ASSERT_EQ(onyx("convert " + (dir_ / "unsorted.txt").string() + " " + unsorted).status, 0);
  ASSERT_EQ(onyx("convert " + (dir_ / "sorted.txt").string() + " " + expected).status, 0);

  // The checker reports the order, and names the repair.
  ToolRun check = onyx("check " + unsorted);
  EXPECT_EQ(check.status, 1) << check.out;
  EXPECT_NE(check.out.find("error R30 graph.node[0](loop).attribute[0](body).g.node[1].input[0]"),
            std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("run `onyx convert --sort IN OUT` to reorder them"), std::string::npos)
      << check.out;

  const fs::path sorted = dir_ / "sorted.onnx";
  ToolRun run = onyx("convert " + unsorted + " " + sorted.string() + " --sort");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(onyx("check " + sorted.string()).status, 0);
  // The bytes of the model written in order: only the order changed.
  EXPECT_EQ(readFile(sorted), readFile(expected));
  // A sorted model comes back byte for byte.
  const fs::path again = dir_ / "again.onnx";
  ASSERT_EQ(onyx("convert " + sorted.string() + " " + again.string() + " --sort").status, 0);
  EXPECT_EQ(readFile(again), readFile(sorted));
  ASSERT_EQ(onyx("convert " + kExample + " " + again.string() + " --sort").status, 0);
  EXPECT_EQ(readFile(again), readFile(kExample));
}

TEST_F(Cli, ConvertSortOfACycleNamesItsNodesAndWritesNothing) {
  std::ofstream(dir_ / "cycle.txt") << R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) { [a] y = Add(x, u)  [b] u = Neg(y) }
)";
  const fs::path out = dir_ / "out.onnx";
  ToolRun run = onyx("convert " + (dir_ / "cycle.txt").string() + " " + out.string() + " --sort");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("graph: the nodes form a cycle:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("node[0](a) (Add)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("node[1](b) (Neg)"), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_NE(onyx("convert --help").out.find("--sort"), std::string::npos);
}

TEST_F(Cli, ConvertToTextTakesNoExternalDataOptions) {
  ToolRun run = onyx("convert " + kExample + " " + (dir_ / "m.txt").string() + kExternalOptions);
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.out.find("apply to a binary output"), std::string::npos) << run.out;
}

}  // namespace onyx
