// `onyx check` as scripts use it: exit 0 valid, 1 invalid with one diagnostic per line on
// stdout, 2 unreadable or bad usage; --json gives an array of {rule, severity, path, message}.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "support/proto_builder.h"
#include "support/tool_testing.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;
namespace f = testing::field;

using testing::ToolRun;

ToolRun onyx(const std::string& arguments) {
  return testing::runOnyx(arguments, testing::Stderr::kDropped);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class CheckCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-check-cli-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    // Two problems: node 'n' reads a name nothing defines, and the graph output is missing.
    testing::ProtoBuilder graph =
        testing::ProtoBuilder()
            .message(f::graph::kNode, testing::nodeProto({"x", "nowhere"}, {"t"}, "n", "Add"))
            .bytes(f::graph::kName, "g")
            .message(f::graph::kInput, testing::valueInfo("x", testing::data_type::kFloat, {2}))
            .message(f::graph::kOutput, testing::valueInfo("y", testing::data_type::kFloat, {2}));
    invalid_ = write("invalid.onnx", testing::modelWithGraph(graph).str());
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }

  fs::path dir_;
  std::string invalid_;
};

TEST_F(CheckCli, NotesInitializersACallerMayOverride) {
  // An initializer listed as an input: valid, and the note says what it hides from inference.
  Result<Model> parsed = parseText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,12] x, int64[2] target) => (float[?,?] y) <int64[2] target = {3, 8}> {
      y = Reshape (x, target)
    })");
  ASSERT_TRUE(parsed) << parsed.status().toString();
  std::string model = (dir_ / "defaults.onnx").string();
  ASSERT_TRUE(saveModel(*parsed, model));
  ToolRun run = testing::runOnyx("check " + model, testing::Stderr::kMerged);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("onyx: note: 1 initializer is also a graph input"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("1 node output goes without a full shape"), std::string::npos) << run.out;
}

TEST_F(CheckCli, AValidModelExitsZeroAndPrintsNothing) {
  ToolRun run = onyx("check " ONYX_SOURCE_DIR "/examples/tiny_cnn.onnx");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out, "");
}

TEST_F(CheckCli, AnInvalidModelExitsOneWithOneDiagnosticPerLine) {
  ToolRun run = onyx("check " + invalid_);
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_EQ(lines(run.out),
            (std::vector<std::string>{
                "error R30 graph.node[0](n).input[1]: 'nowhere' is not defined: no graph input, "
                "initializer or earlier node output in scope has this name",
                "error R31 graph.output[0](y): 'y' is not defined: no input, initializer or node "
                "output of this graph has this name"}));
}

TEST_F(CheckCli, JsonIsAnArrayOfDiagnostics) {
  ToolRun run = onyx("check --json " + invalid_);
  EXPECT_EQ(run.status, 1) << run.out;
  nlohmann::json parsed = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(parsed.is_array()) << run.out;
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[0]["rule"], "R30");
  EXPECT_EQ(parsed[0]["severity"], "error");
  EXPECT_EQ(parsed[0]["path"], "graph.node[0](n).input[1]");
  EXPECT_TRUE(parsed[0]["message"].is_string());
  EXPECT_EQ(parsed[1]["rule"], "R31");

  run = onyx("check --json " ONYX_SOURCE_DIR "/examples/tiny_cnn.onnx");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(nlohmann::json::parse(run.out, nullptr, false), nlohmann::json::array());
}

TEST_F(CheckCli, WarningsAloneLeaveAModelValid) {
  // Two nodes named 'n': a warning (R35), printed, with exit 0.
  testing::ProtoBuilder graph =
      testing::ProtoBuilder()
          .message(f::graph::kNode, testing::nodeProto({"x"}, {"t"}, "n", "Neg"))
          .message(f::graph::kNode, testing::nodeProto({"t"}, {"y"}, "n", "Neg"))
          .bytes(f::graph::kName, "g")
          .message(f::graph::kInput, testing::valueInfo("x", testing::data_type::kFloat, {2}))
          .message(f::graph::kOutput, testing::valueInfo("y", testing::data_type::kFloat, {2}));
  std::string path = write("warned.onnx", testing::modelWithGraph(graph).str());
  ToolRun run = onyx("check " + path);
  EXPECT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(lines(run.out).size(), 1u) << run.out;
  EXPECT_EQ(run.out.rfind("warning R35 graph.node[1](n): ", 0), 0u) << run.out;
}

TEST_F(CheckCli, BytesThatAreNoModelAreInvalidNotUnreadable) {
  std::string path = write("truncated.onnx", testing::validModelBytes().substr(0, 20));
  ToolRun run = onyx("check " + path);
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_EQ(run.out.rfind("error R1 ", 0), 0u) << run.out;
}

TEST_F(CheckCli, UnreadableFilesAndBadUsageExitTwo) {
  EXPECT_EQ(onyx("check " + (dir_ / "missing.onnx").string()).status, 2);
  EXPECT_EQ(onyx("check " + dir_.string()).status, 2);
  EXPECT_EQ(onyx("check").status, 2);
  EXPECT_EQ(onyx("check --no-such-flag " + invalid_).status, 2);
}

}  // namespace
}  // namespace onyx
