// A rewrite done only through the graph API: every Relu becomes Clip(x, 0, 6) with min and
// max as inputs (opset 11 and later), in the main graph and in subgraphs, keeping value
// and node names. The result verifies, and writing it and reading it back gives the same
// graph.
#include <gtest/gtest.h>

#include <cstring>

#include "onyx/core/element_type.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/topo_sort.h"
#include "onyx/ir/unique_names.h"
#include "onyx/ir/verify.h"
#include "support/graph_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::ProtoBuilder;
namespace f = testing::field;
constexpr int32_t kFloat = static_cast<int32_t>(ElementType::kFloat);

// main(x: float[N,4], cond: bool) {
//   a = Relu(x)            "relu_a"
//   b = Add(a, w)          w an initializer
//   c = Relu(b)            "relu_c", declared float[N,4] in value_info
//   r = If(cond) { then: t1 = Relu(a) -> t1;  else: e1 = Identity(a) -> e1 }
//   outputs c, r
// }  opset 10 (Clip took min and max as attributes until 11)
std::string sourceModel() {
  auto branch = [](std::string_view op, std::string_view out, std::string_view name) {
    ProtoBuilder graph;
    graph.message(f::graph::kNode, testing::nodeProto({"a"}, {out}, "", op))
        .bytes(f::graph::kName, name)
        .message(f::graph::kOutput, testing::valueInfo(out, kFloat, {}));
    return ProtoBuilder()
        .bytes(f::attribute::kName, name)
        .message(f::attribute::kG, graph)
        .varint(f::attribute::kType, testing::attribute_type::kGraph);
  };
  ProtoBuilder if_node = testing::nodeProto({"cond"}, {"r"}, "if", "If");
  if_node.message(f::node::kAttribute, branch("Relu", "t1", "then_branch"))
      .message(f::node::kAttribute, branch("Identity", "e1", "else_branch"));
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"x"}, {"a"}, "relu_a", "Relu"))
      .message(f::graph::kNode, testing::nodeProto({"a", "w"}, {"b"}, "add", "Add"))
      .message(f::graph::kNode, testing::nodeProto({"b"}, {"c"}, "relu_c", "Relu"))
      .message(f::graph::kNode, if_node)
      .bytes(f::graph::kName, "main")
      .message(f::graph::kInitializer, testing::floatTensor("w", {4}, {1, 2, 3, 4}))
      .message(f::graph::kInput, testing::valueInfo("x", kFloat, {3, 4}))
      .message(f::graph::kInput, testing::valueInfo("cond", 9, {}))
      .message(f::graph::kOutput, testing::valueInfo("c", kFloat, {3, 4}))
      .message(f::graph::kOutput, testing::valueInfo("r", kFloat, {}))
      .message(f::graph::kValueInfo, testing::valueInfo("c", kFloat, {3, 4}));
  return testing::modelWithGraph(graph, 7, 10).str();
}

// Replaces every Relu of the default domain by Clip(x, min, max), where min and max are
// scalar initializers of the main graph. Returns how many it replaced.
size_t reluToClip(Model& model, float low, float high) {
  GraphEditor edit(model);
  Arena& arena = edit.arena();
  Graph& main = *model.graph;
  Value* min = *edit.addInitializer(
      main, testing::floatTensor(arena, edit.uniqueName(main, "clip_min"), {}, {low}));
  Value* max = *edit.addInitializer(
      main, testing::floatTensor(arena, edit.uniqueName(main, "clip_max"), {}, {high}));
  size_t replaced = 0;
  main.forEachNode([&](Node* relu) {
    if (relu->opType() != "Relu" || !relu->domainOrDefault().empty()) return;
    Graph& graph = *relu->graph();
    Node* clip = edit.createNode(graph, "Clip", {relu->input(0), min, max}, 0);
    clip->name = relu->name;
    clip->insertBefore(relu);
    Value* old_output = relu->output(0);
    Value* clipped = edit.addOutput(clip);
    std::string name(old_output->name());
    if (const Type* type = old_output->type()) edit.setType(clipped, edit.cloneType(*type));
    old_output->replaceAllUsesWith(clipped);
    EXPECT_TRUE(relu->destroy());
    EXPECT_TRUE(edit.rename(clipped, name));  // free again: its value is gone
    ++replaced;
  });
  model.setOpsetVersion("", 13);
  return replaced;
}

// Every node of `graph` and its subgraphs as `name:Op(inputs)->(outputs)`, one per line.
std::string describe(const Graph& graph, const std::string& indent = "") {
  std::string text;
  for (const Node* node : graph.nodes()) {
    text += indent + std::string(node->nameOrEmpty()) + ":" + std::string(node->opType()) + "(";
    for (size_t i = 0; i < node->inputCount(); ++i) {
      text += (i ? "," : "") + std::string(node->input(i) ? node->input(i)->name() : "");
    }
    text += ")->(";
    for (size_t i = 0; i < node->outputCount(); ++i) {
      text += (i ? "," : "") + std::string(node->output(i) ? node->output(i)->name() : "");
    }
    text += ")\n";
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g != nullptr) text += describe(*attribute->g, indent + "  ");
    }
  }
  for (const ValueInfo* output : graph.outputs) {
    text += indent + "output " + std::string(output->bound()->name()) + "\n";
  }
  return text;
}

TEST(Rewrite, EveryReluBecomesClipThroughTheApi) {
  Model model = testing::parseOwned(sourceModel());
  ASSERT_TRUE(testing::verified(model));
  ASSERT_EQ(reluToClip(model, 0.0f, 6.0f), 3u);
  ASSERT_TRUE(testing::verified(model));

  const std::string expected =
      "relu_a:Clip(x,clip_min,clip_max)->(a)\n"
      "add:Add(a,w)->(b)\n"
      "relu_c:Clip(b,clip_min,clip_max)->(c)\n"
      "if:If(cond)->(r)\n"
      "  :Clip(a,clip_min,clip_max)->(t1)\n"
      "  output t1\n"
      "  :Identity(a)->(e1)\n"
      "  output e1\n"
      "output c\n"
      "output r\n";
  EXPECT_EQ(describe(*model.graph), expected);
  EXPECT_EQ(model.opsetVersion(""), 13);
  Value* c = model.graph->names().find("c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(formatType(*c->type()), "float[3,4]");  // the declaration followed the value
  Value* a = model.graph->names().find("a");
  EXPECT_EQ(a->useCount(), 3u);  // Add, and Clip and Identity in the branches
  EXPECT_TRUE(a->isCaptured());
  Value* min = model.graph->names().find("clip_min");
  EXPECT_EQ(min->useCount(), 3u);
  // Already in order: sorting changes nothing.
  ASSERT_TRUE(topologicalSort(*model.graph));
  EXPECT_EQ(describe(*model.graph), expected);

  // Written and read back: the same graph, and the same bytes once more.
  std::string bytes = testing::bytesOf(model);
  Model back = testing::parseOwned(bytes);
  EXPECT_TRUE(testing::verified(back));
  EXPECT_EQ(describe(*back.graph), expected);
  EXPECT_EQ(testing::bytesOf(back), bytes);
  EXPECT_EQ(back.opsetVersion(""), 13);
  const Tensor* max = back.graph->names().find("clip_max")->initializer();
  ASSERT_NE(max, nullptr);
  EXPECT_TRUE(max->dims.empty());
  float six = 0;
  std::memcpy(&six, max->raw_data->data(), 4);
  EXPECT_EQ(six, 6.0f);
}

TEST(Rewrite, TheRewriteOfACloneLeavesTheOriginalAlone) {
  Model model = testing::parseOwned(sourceModel());
  std::string before = testing::bytesOf(model);
  Model copy = cloneModel(model);
  EXPECT_EQ(reluToClip(copy, 0.0f, 6.0f), 3u);
  EXPECT_TRUE(testing::verified(copy));
  EXPECT_EQ(testing::bytesOf(model), before);
  EXPECT_NE(testing::bytesOf(copy), before);
}

}  // namespace
}  // namespace onyx
