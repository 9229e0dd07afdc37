// The model rules (R6–R14, R22), each with a model that breaks it and one on the valid
// side of its edge.
#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/metadata.h"
#include "support/check_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

namespace f = testing::field;
using testing::checkBytes;
using testing::checkText;
using testing::errorRules;
using testing::listed;
using testing::pathOf;
using testing::ProtoBuilder;
using testing::Rules;
using testing::warningRules;

const Rules kNone;

// A graph with one Neg node, in the text syntax after `header`.
std::string withHeader(const std::string& header) {
  return header + "\ng (float[2] x) => (float[2] y) { y = Neg(x) }";
}

TEST(ModelRules, R6TheModelSaysItsIrVersion) {
  Diagnostics found = checkText(withHeader(R"(<opset_import: ["" : 13]>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R6"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R6"), "ir_version");
  found = checkText(withHeader(R"(<ir_version: 0, opset_import: ["" : 13]>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R6"})) << listed(found);
}

TEST(ModelRules, R7TheIrVersionIsOneOnyxKnows) {
  Diagnostics found = checkText(withHeader(R"(<ir_version: 15, opset_import: ["" : 13]>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R7"})) << listed(found);
  std::string negative =
      testing::modelWithGraph(testing::validGraph(), static_cast<int64_t>(-3)).str();
  found = checkBytes(negative);
  EXPECT_EQ(errorRules(found), (Rules{"R7"})) << listed(found);
  // IR 13 is the newest published version; 14 is a draft that is checked as 13.
  found = checkText(withHeader(R"(<ir_version: 13, opset_import: ["" : 13]>)"));
  EXPECT_TRUE(found.all().empty()) << listed(found);
  found = checkText(withHeader(R"(<ir_version: 14, opset_import: ["" : 13]>)"));
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R7"})) << listed(found);
}

TEST(ModelRules, R8FromIr3AModelImportsAnOperatorSet) {
  Diagnostics found = checkText(R"(<ir_version: 3>
g (float[2] x) => (float[2] x) { })");
  EXPECT_EQ(errorRules(found), (Rules{"R8"})) << listed(found);
  // A model whose nodes are all in another domain need not import ai.onnx.
  found = checkText(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 3]>
g (float[2] x) => (float[2] y) { y = ai.onnx.ml.Binarizer(x) })");
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(ModelRules, R9BeforeIr3ThereAreNoImports) {
  Diagnostics found = checkText(withHeader(R"(<ir_version: 2, opset_import: ["" : 1]>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R9"})) << listed(found);
  // Without imports an IR 2 model uses ai.onnx version 1.
  found = checkText(withHeader("<ir_version: 2>"));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(ModelRules, R10EachImportHasAVersionAndADomainOfItsOwn) {
  Diagnostics found =
      checkText(withHeader(R"(<ir_version: 8, opset_import: ["" : 13, "ai.onnx" : 12]>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R10"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R10"), "opset_import[1]");
  found = checkText(withHeader(R"(<ir_version: 8, opset_import: ["" : 0]>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R10"})) << listed(found);
  found = checkText(withHeader(R"(<ir_version: 8, opset_import: ["" : 2147483648]>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R10"})) << listed(found);
  std::string no_version =
      ProtoBuilder()
          .varint(f::model::kIrVersion, 8)
          .message(f::model::kGraph, testing::validGraph())
          .message(f::model::kOpsetImport, ProtoBuilder().bytes(f::opset::kDomain, ""))
          .str();
  found = checkBytes(no_version);
  // The domain is still imported: its nodes are not reported again under R11.
  EXPECT_EQ(errorRules(found), (Rules{"R10"})) << listed(found);
  found = checkText(withHeader(R"(<ir_version: 8, opset_import: ["" : 13, "com.x" : 1]>)"));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(ModelRules, R11EveryNodeDomainIsImported) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) { y = com.x.Scale(x) })");
  EXPECT_EQ(errorRules(found), (Rules{"R11"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R11"), "graph.node[0]");
  // "" and "ai.onnx" are one domain, whichever spelling the import and the node use.
  found = checkText(R"(<ir_version: 8, opset_import: ["ai.onnx" : 13]>
g (float[2] x) => (float[2] y) { t = Neg(x)  y = ai.onnx.Neg(t) })");
  EXPECT_TRUE(found.all().empty()) << listed(found);
  // Nodes of nested graphs resolve against the model's imports too.
  found = checkText(R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool c, float[2] x) => (float[2] y) {
  y = If (c) <then_branch = a () => (float[2] p) { p = com.x.Scale(x) },
              else_branch = b () => (float[2] q) { q = Neg(x) }>
})");
  EXPECT_EQ(errorRules(found), (Rules{"R11"})) << listed(found);
}

TEST(ModelRules, R12StandardDomainsHaveTheirPublishedVersions) {
  Diagnostics found = checkText(withHeader(R"(<ir_version: 8, opset_import: ["" : 29]>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R12"})) << listed(found);
  found = checkText(withHeader(R"(<ir_version: 8, opset_import: ["" : 13, "ai.onnx.ml" : 6]>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R12"})) << listed(found);
  found = checkText(withHeader(
      R"(<ir_version: 8, opset_import: ["" : 28, "ai.onnx.ml" : 5, "ai.onnx.preview.training" : 1, "com.x" : 999]>)"));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(ModelRules, R13ModelMetadataKeysAreDistinctOthersShouldBe) {
  Model model = testing::parseOrFail(withHeader(
      R"(<ir_version: 10, opset_import: ["" : 13], metadata_props: ["a" : "1", "b" : "2", "a" : "3"]>)"));
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R13"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R13"), "metadata_props[2](a)");
  model.metadata_props.truncate(2);
  GraphEditor edit(model);
  Arena& arena = edit.arena();
  Node* node = model.graph->firstNode();
  edit.rare(node).metadata_props.push_back(arena, StringStringEntry{"k", "1", {}});
  edit.rare(node).metadata_props.push_back(arena, StringStringEntry{"k", "2", {}});
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R13"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R13"), "graph.node[0].metadata_props[1](k)");
}

TEST(ModelRules, X4MetadataOnNodesNeedsIr10) {
  Model model = testing::parseOrFail(withHeader(R"(<ir_version: 9, opset_import: ["" : 13]>)"));
  GraphEditor(model).setMetadata(GraphEditor(model).rare(model.graph->firstNode()).metadata_props,
                                 "k", "v");
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"X4"})) << listed(found);
  EXPECT_EQ(pathOf(found, "X4"), "graph.node[0].metadata_props");
}

TEST(ModelRules, R14AModelHasAGraph) {
  std::string bytes = ProtoBuilder()
                          .varint(f::model::kIrVersion, 8)
                          .message(f::model::kOpsetImport, testing::opsetImport("", 13))
                          .str();
  Diagnostics found = checkBytes(bytes);
  EXPECT_EQ(errorRules(found), (Rules{"R14"})) << listed(found);
}

// A model at `ir` with configuration "pair" of two devices and one node sharding its input.
Model shardedModel(int ir) {
  Model model = testing::parseOrFail("<ir_version: " + std::to_string(ir) +
                                     R"(, opset_import: ["" : 13]>
g (float[4, 8] x) => (float[4, 8] y) { y = Neg(x) })");
  GraphEditor edit(model);
  Arena& arena = edit.arena();
  model.addConfiguration("pair", 2, {"gpu0", "gpu1"});
  auto* simple = arena.make<SimpleShardedDim>();
  simple->dim_value = 8;
  simple->num_shards = 2;
  auto* dim = arena.make<ShardedDim>();
  dim->axis = 1;
  dim->simple_sharding.push_back(arena, simple);
  auto* spec = arena.make<ShardingSpec>();
  spec->tensor_name = "x";
  spec->device.values.push_back(arena, 0);
  spec->device.values.push_back(arena, 1);
  spec->sharded_dim.push_back(arena, dim);
  auto* config = arena.make<NodeDeviceConfiguration>();
  config->configuration_id = "pair";
  config->sharding_spec.push_back(arena, spec);
  edit.rare(model.graph->firstNode()).device_configurations.push_back(arena, config);
  return model;
}

TEST(ModelRules, R22DeviceAnnotationsAreConsistent) {
  Model model = shardedModel(11);
  Diagnostics found = checkModel(model);
  EXPECT_TRUE(found.all().empty()) << listed(found);

  // Older models may carry them, but their readers ignore them.
  Model older = shardedModel(10);
  found = checkModel(older);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R22", "R22"})) << listed(found);

  NodeDeviceConfiguration& config = *model.graph->firstNode()->rare().device_configurations[0];
  ShardingSpec& spec = *config.sharding_spec[0];
  config.configuration_id = "quad";
  spec.tensor_name = "w";
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R22", "R22"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.node[0].device_configurations[0]");
  EXPECT_EQ(found.all()[1].path, "graph.node[0].device_configurations[0].sharding_spec[0]");

  config.configuration_id = "pair";
  spec.tensor_name = "y";
  spec.sharded_dim[0]->axis = 2;  // y has rank 2: axes -2 to 1
  spec.sharded_dim[0]->simple_sharding[0]->num_shards.reset();
  model.configuration[0]->device.truncate(1);
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R22", "R22", "R22"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "configuration[0](pair)");
  EXPECT_EQ(found.all()[1].path,
            "graph.node[0].device_configurations[0].sharding_spec[0].sharded_dim[0]");
  EXPECT_EQ(found.all()[2].path,
            "graph.node[0].device_configurations[0].sharding_spec[0].sharded_dim[0]"
            ".simple_sharding[0]");
}

TEST(ModelRules, EveryProblemIsReportedNotTheFirst) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 29, "" : 13]>
g (float[2] x, float[2] x) => (float[2] y, float[2] z) {
  y = com.x.Scale(undefined)
  y = Neg(x)
})");
  EXPECT_EQ(errorRules(found), (Rules{"R12", "R10", "R26", "R11", "R30", "R29", "R31"}))
      << listed(found);
}

}  // namespace
}  // namespace onyx
