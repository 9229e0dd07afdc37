// The training rules (R16–R21), on models built field by field: the text syntax has no
// training_info.
#include <gtest/gtest.h>

#include <initializer_list>

#include "onyx/check/checker.h"
#include "support/check_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

namespace f = testing::field;
using testing::checkBytes;
using testing::errorRules;
using testing::listed;
using testing::pathOf;
using testing::ProtoBuilder;
using testing::Rules;
using testing::warningRules;

const Rules kNone;
constexpr int32_t kFloat = testing::data_type::kFloat;

// The inference graph: y = Add(x, w), with w an initializer (the state variable).
ProtoBuilder mainGraph() {
  return ProtoBuilder()
      .message(f::graph::kNode, testing::nodeProto({"x", "w"}, {"y"}, "", "Add"))
      .bytes(f::graph::kName, "main")
      .message(f::graph::kInitializer, testing::floatTensor("w", {2}, {1, 2}))
      .message(f::graph::kInput, testing::valueInfo("x", kFloat, {2}))
      .message(f::graph::kOutput, testing::valueInfo("y", kFloat, {2}));
}

// w0 = RandomNormal <shape = [2]> ().
ProtoBuilder randomW0() {
  ProtoBuilder shape;
  shape.bytes(f::attribute::kName, "shape")
      .varint(f::attribute::kType, static_cast<uint64_t>(testing::attribute_type::kInts))
      .packedVarints(f::attribute::kInts, {2});
  return testing::nodeProto({}, {"w0"}, "", "RandomNormal").message(f::node::kAttribute, shape);
}

// initialization: w0 = RandomNormal <shape = [2]> ().
ProtoBuilder initializationGraph() {
  return ProtoBuilder()
      .message(f::graph::kNode, randomW0())
      .bytes(f::graph::kName, "init")
      .message(f::graph::kOutput, testing::valueInfo("w0", kFloat, {2}));
}

// algorithm: reads the main graph's y and w; w_new = Sub(w, Mul(y, w)).
ProtoBuilder algorithmGraph() {
  return ProtoBuilder()
      .message(f::graph::kNode, testing::nodeProto({"y", "w"}, {"g"}, "", "Mul"))
      .message(f::graph::kNode, testing::nodeProto({"w", "g"}, {"w_new"}, "", "Sub"))
      .bytes(f::graph::kName, "algo")
      .message(f::graph::kOutput, testing::valueInfo("w_new", kFloat, {2}));
}

using Binding = std::pair<const char*, const char*>;

ProtoBuilder trainingInfo(const ProtoBuilder* initialization, const ProtoBuilder* algorithm,
                          std::initializer_list<Binding> initialization_binding,
                          std::initializer_list<Binding> update_binding) {
  ProtoBuilder info;
  if (initialization != nullptr) info.message(f::training::kInitialization, *initialization);
  if (algorithm != nullptr) info.message(f::training::kAlgorithm, *algorithm);
  for (auto [key, value] : initialization_binding) {
    info.message(f::training::kInitializationBinding, testing::stringEntry(key, value));
  }
  for (auto [key, value] : update_binding) {
    info.message(f::training::kUpdateBinding, testing::stringEntry(key, value));
  }
  return info;
}

ProtoBuilder validTrainingInfo() {
  ProtoBuilder initialization = initializationGraph();
  ProtoBuilder algorithm = algorithmGraph();
  return trainingInfo(&initialization, &algorithm, {{"w", "w0"}}, {{"w", "w_new"}});
}

std::string model(std::initializer_list<ProtoBuilder> infos, int64_t ir = 8,
                  const ProtoBuilder& graph = mainGraph()) {
  ProtoBuilder bytes = testing::modelWithGraph(graph, ir, 13);
  for (const ProtoBuilder& info : infos) bytes.message(f::model::kTrainingInfo, info);
  return bytes.str();
}

TEST(TrainingRules, AValidTrainingModelHasNoDiagnostics) {
  Diagnostics found = checkBytes(model({validTrainingInfo()}));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(TrainingRules, R16TrainingInfoComesWithIr7) {
  Diagnostics found = checkBytes(model({validTrainingInfo()}, 6));
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R16"})) << listed(found);
}

TEST(TrainingRules, R17BindingKeysAreInitializers) {
  ProtoBuilder initialization = initializationGraph();
  ProtoBuilder algorithm = algorithmGraph();
  Diagnostics found = checkBytes(
      model({trainingInfo(&initialization, &algorithm, {{"x", "w0"}}, {{"w", "w_new"}})}));
  EXPECT_EQ(errorRules(found), (Rules{"R17"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R17"), "training_info[0].initialization_binding[0](x)");
  // An initializer of the algorithm graph is a state variable too.
  ProtoBuilder with_state =
      algorithmGraph().message(f::graph::kInitializer, testing::floatTensor("step", {1}, {0}));
  found = checkBytes(
      model({trainingInfo(&initialization, &with_state, {{"step", "w0"}}, {{"w", "w_new"}})}));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(TrainingRules, R18BindingValuesAreGraphOutputs) {
  ProtoBuilder initialization = initializationGraph();
  ProtoBuilder algorithm = algorithmGraph();
  Diagnostics found = checkBytes(
      model({trainingInfo(&initialization, &algorithm, {{"w", "g"}}, {{"w", "nothing"}})}));
  EXPECT_EQ(errorRules(found), (Rules{"R18", "R18"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "training_info[0].initialization_binding[0](w)");
  EXPECT_EQ(found.all()[1].path, "training_info[0].update_binding[0](w)");
  // update_binding may also take an output of the main graph.
  found = checkBytes(model({trainingInfo(&initialization, &algorithm, {}, {{"w", "y"}})}));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(TrainingRules, R19EachStateVariableIsAssignedOnce) {
  ProtoBuilder initialization = initializationGraph();
  ProtoBuilder algorithm = algorithmGraph();
  Diagnostics found = checkBytes(model(
      {trainingInfo(&initialization, &algorithm, {{"w", "w0"}, {"w", "w0"}}, {{"w", "w_new"}}),
       trainingInfo(nullptr, &algorithm, {}, {{"w", "w_new"}})}));
  EXPECT_EQ(errorRules(found), (Rules{"R19", "R19"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "training_info[0].initialization_binding[1](w)");
  EXPECT_EQ(found.all()[1].path, "training_info[1].update_binding[0](w)");
}

TEST(TrainingRules, R20TheInitializationGraphTakesNothing) {
  ProtoBuilder algorithm = algorithmGraph();
  Diagnostics found =
      checkBytes(model({trainingInfo(nullptr, &algorithm, {{"w", "w0"}}, {{"w", "w_new"}})}));
  EXPECT_EQ(errorRules(found), (Rules{"R20", "R18"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R20"), "training_info[0]");
  ProtoBuilder with_input =
      initializationGraph().message(f::graph::kInput, testing::valueInfo("seed", kFloat, {1}));
  found =
      checkBytes(model({trainingInfo(&with_input, &algorithm, {{"w", "w0"}}, {{"w", "w_new"}})}));
  EXPECT_EQ(errorRules(found), (Rules{"R20"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R20"), "training_info[0].initialization");
  // Both graphs may be left out when nothing is bound.
  found = checkBytes(model({trainingInfo(nullptr, nullptr, {}, {})}));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(TrainingRules, R21TheAlgorithmGraphContinuesTheMainGraph) {
  ProtoBuilder initialization = initializationGraph();
  ProtoBuilder algorithm =
      algorithmGraph()
          .message(f::graph::kNode, testing::nodeProto({"unknown"}, {"y"}, "", "Neg"))
          .message(f::graph::kInput, testing::valueInfo("x", kFloat, {2}));
  Diagnostics found = checkBytes(
      model({trainingInfo(&initialization, &algorithm, {{"w", "w0"}}, {{"w", "w_new"}})}));
  // Its input 'x' repeats the main graph's; its node reads a name nobody defines and
  // redefines the main graph's 'y'.
  EXPECT_EQ(errorRules(found), (Rules{"R26", "R30", "R29"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "training_info[0].algorithm.input[0](x)");
  EXPECT_EQ(found.all()[1].path, "training_info[0].algorithm.node[2].input[0]");
  EXPECT_EQ(found.all()[2].path, "training_info[0].algorithm.node[2].output[0]");
  // Training graphs are graphs: named, with typed inputs and outputs.
  ProtoBuilder unnamed = ProtoBuilder()
                             .message(f::graph::kNode, randomW0())
                             .message(f::graph::kOutput, ProtoBuilder().bytes(1, "w0"));
  found = checkBytes(model({trainingInfo(&unnamed, nullptr, {{"w", "w0"}}, {})}));
  EXPECT_EQ(errorRules(found), (Rules{"R23", "R24"})) << listed(found);
}

}  // namespace
}  // namespace onyx
