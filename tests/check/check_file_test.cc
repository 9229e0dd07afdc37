// checkModelFile: a file that cannot be read is a Status; a file that does not decode is a
// diagnostic of the encoding rules (R1, R2, R4, R63); a file over 2 GiB is R5; external
// data that is unsafe or missing is R71, its file opened unless CheckOptions::external_data
// is off.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <utility>

#include "onyx/check/checker.h"
#include "support/check_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;
namespace f = testing::field;
using testing::errorRules;
using testing::listed;
using testing::ProtoBuilder;
using testing::Rules;

class CheckFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-check-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }

  Diagnostics check(const std::string& bytes, const CheckOptions& options = {}) {
    auto checked = checkModelFile(write("model.onnx", bytes), options);
    EXPECT_TRUE(checked) << checked.status().toString();
    return checked ? std::move(checked).value() : Diagnostics();
  }

  fs::path dir_;
};

// The valid model with its graph (nodes and initializer) replaced by `graph`.
std::string modelOf(const ProtoBuilder& graph) { return testing::modelWithGraph(graph).str(); }

TEST_F(CheckFile, AValidFileHasNoDiagnostics) {
  Diagnostics found = check(testing::validModelBytes());
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST_F(CheckFile, AFileThatCannotBeReadIsAStatusNotADiagnostic) {
  auto missing = checkModelFile((dir_ / "missing.onnx").string());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  auto folder = checkModelFile(dir_.string());
  EXPECT_FALSE(folder);
}

TEST_F(CheckFile, R1BytesThatAreNoModel) {
  std::string bytes = testing::validModelBytes();
  Diagnostics found = check(bytes.substr(0, bytes.size() - 3));
  ASSERT_EQ(errorRules(found), (Rules{"R1"})) << listed(found);
  EXPECT_NE(found.all()[0].message.find("(at byte "), std::string::npos) << listed(found);
  EXPECT_FALSE(found.all()[0].path.empty()) << listed(found);
}

TEST_F(CheckFile, R2PackedFieldsHoldWholeElements) {
  ProtoBuilder attribute =
      ProtoBuilder().bytes(f::attribute::kName, "alpha").bytes(f::attribute::kFloats, "12345");
  ProtoBuilder graph =
      ProtoBuilder()
          .message(
              f::graph::kNode,
              testing::nodeProto({"x"}, {"y"}, "n", "Neg").message(f::node::kAttribute, attribute))
          .bytes(f::graph::kName, "g");
  Diagnostics found = check(modelOf(graph));
  ASSERT_EQ(errorRules(found), (Rules{"R2"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.node[0](n).attribute[0](alpha).floats");
}

TEST_F(CheckFile, R4NestingIsBounded) {
  ProtoBuilder graph = ProtoBuilder().bytes(f::graph::kName, "leaf");
  for (int level = 0; level < 40; ++level) {
    ProtoBuilder attribute = ProtoBuilder()
                                 .bytes(f::attribute::kName, "body")
                                 .message(f::attribute::kG, graph)
                                 .varint(f::attribute::kType, testing::attribute_type::kGraph);
    graph = ProtoBuilder()
                .message(f::graph::kNode,
                         testing::nodeProto({}, {"o" + std::to_string(level)}, "", "Loop")
                             .message(f::node::kAttribute, attribute))
                .bytes(f::graph::kName, "g");
  }
  Diagnostics found = check(modelOf(graph));
  EXPECT_EQ(errorRules(found), (Rules{"R4"})) << listed(found);
}

TEST_F(CheckFile, R63DimsAreNotNegative) {
  ProtoBuilder tensor = ProtoBuilder()
                            .varint(f::tensor::kDims, static_cast<uint64_t>(int64_t{-2}))
                            .varint(f::tensor::kDataType, testing::data_type::kFloat)
                            .bytes(f::tensor::kName, "w");
  ProtoBuilder graph = testing::validGraph().message(f::graph::kInitializer, tensor);
  Diagnostics found = check(modelOf(graph));
  EXPECT_EQ(errorRules(found), (Rules{"R63"})) << listed(found);
}

TEST_F(CheckFile, R5AModelFileOver2GiBIsReportedBesideTheRest) {
  // A sparse file: 2 GiB of zeros takes no disk, and the decoder stops at the first byte.
  std::string path = (dir_ / "huge.onnx").string();
  int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, off_t{1} << 31), 0);
  ::close(fd);
  auto checked = checkModelFile(path);
  ASSERT_TRUE(checked) << checked.status().toString();
  EXPECT_EQ(errorRules(*checked), (Rules{"R5", "R1"})) << listed(*checked);
}

// The valid model's graph with its initializer w stored in external data at `location`
// (no location entry when nullopt) and the further external_data entries `more`.
ProtoBuilder externalGraph(std::optional<std::string_view> location,
                           std::initializer_list<std::pair<const char*, const char*>> more = {}) {
  ProtoBuilder tensor = ProtoBuilder()
                            .varint(f::tensor::kDims, 2)
                            .varint(f::tensor::kDataType, testing::data_type::kFloat)
                            .bytes(f::tensor::kName, "w");
  if (location) {
    tensor.message(f::tensor::kExternalData, testing::stringEntry("location", *location));
  }
  for (auto [key, value] : more) {
    tensor.message(f::tensor::kExternalData, testing::stringEntry(key, value));
  }
  tensor.varint(f::tensor::kDataLocation, testing::kDataLocationExternal);
  return ProtoBuilder()
      .message(f::graph::kNode, testing::validNode())
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInitializer, tensor)
      .message(f::graph::kInput, testing::valueInfo("x", testing::data_type::kFloat, {2}))
      .message(f::graph::kOutput, testing::valueInfo("y", testing::data_type::kFloat, {2}));
}

TEST_F(CheckFile, R71ExternalDataStaysInTheModelsFolder) {
  write("w.bin", std::string(8, '\0'));
  Diagnostics found = check(modelOf(externalGraph("w.bin")));
  EXPECT_TRUE(found.all().empty()) << listed(found);

  // Reported once, by the value rules, though loading the data refused it as well.
  found = check(modelOf(externalGraph("../w.bin")));
  ASSERT_EQ(errorRules(found), (Rules{"R71"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.initializer[0](w).external_data(location)");
  found = check(modelOf(externalGraph("absent.bin")));
  ASSERT_EQ(errorRules(found), (Rules{"R71"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.initializer[0](w).external_data(location)");

  // Asked not to, the checker opens no other file and says nothing of the files it did not
  // open; a location that leaves the folder is wrong in the model file itself.
  CheckOptions options;
  options.external_data = false;
  found = check(modelOf(externalGraph("absent.bin")), options);
  EXPECT_TRUE(found.all().empty()) << listed(found);
  found = check(modelOf(externalGraph("../w.bin")), options);
  ASSERT_EQ(errorRules(found), (Rules{"R71"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.initializer[0](w).external_data(location)");
}

TEST_F(CheckFile, R70AnExternalTensorNamesItsLocation) {
  write("w.bin", std::string(8, '\0'));
  Diagnostics found = check(modelOf(externalGraph(std::nullopt, {{"offset", "0"}})));
  ASSERT_EQ(errorRules(found), (Rules{"R70"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.initializer[0](w).external_data");
}

TEST_F(CheckFile, R72ExternalRangesFitTheFile) {
  write("w.bin", std::string(8, '\0'));
  // From offset 4, the 8 bytes the tensor needs run past the end of the 8-byte file.
  Diagnostics found = check(modelOf(externalGraph("w.bin", {{"offset", "4"}, {"length", "8"}})));
  EXPECT_EQ(errorRules(found), (Rules{"R72"})) << listed(found);
  found = check(modelOf(externalGraph("w.bin", {{"offset", "0"}, {"length", "8"}})));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

}  // namespace
}  // namespace onyx
