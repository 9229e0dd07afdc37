// The graph rules (R23–R35, R37, R38 and X1, X2), each with a model that breaks it and one
// on the valid side of its edge. Models are written in the text syntax where it can say
// what the test needs, and edited through the IR where it cannot.
#include <gtest/gtest.h>

#include "check/value_rules_testing.h"
#include "onyx/check/checker.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/metadata.h"
#include "support/check_testing.h"

namespace onyx {
namespace {

using testing::checkText;
using testing::errorRules;
using testing::listed;
using testing::pathOf;
using testing::Rules;
using testing::warningRules;

const Rules kNone;

// A sparse tensor the value rules accept, named `name`: dense shape [4], one value (0.0) at
// position 1.
SparseTensor* validSparse(const GraphEditor& edit, std::string_view name) {
  namespace values = check::testing;
  auto* sparse = edit.arena().make<SparseTensor>();
  sparse->values = values::makeTensor(edit.arena(), ElementType::kFloat, {1}, name);
  edit.rare(sparse->values).float_data = values::words(edit.arena(), 1, 4);
  sparse->indices = values::makeTensor(edit.arena(), ElementType::kInt64, {1});
  edit.rare(sparse->indices).int64_data = values::varints(edit.arena(), {1});
  sparse->dims.values.push_back(edit.arena(), 4);
  return sparse;
}

TEST(GraphRules, AValidGraphHasNoDiagnostics) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[N] x, float[2] w = {1, 2}) => (float[N] y) <float[2] c = {3, 4}> {
  t = Add(x, w)
  y = Mul(t, c)
})");
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(GraphRules, R23EveryGraphIsNamed) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool c, float[2] x) => (float[2] y) {
  y = If (c) <then_branch = a () => (float[2] p) { p = Identity(x) },
              else_branch = b () => (float[2] q) { q = Neg(x) }>
})");
  model.graph->name.reset();
  model.graph->firstNode()->attributes[1]->g->name = "";
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R23", "R23"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R23"), "graph");
  EXPECT_EQ(found.all()[1].path, "graph.node[0].attribute[1](else_branch).g");
}

TEST(GraphRules, R24MainGraphInputsAndOutputsAreTyped) {
  // In the text syntax `float[] x` has no shape (unknown rank); `float s` is a scalar, which
  // has a shape (with no dims).
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[] x, float s) => (float y) { y = Add(x, s) })");
  EXPECT_EQ(errorRules(found), (Rules{"R24"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R24"), "graph.input[0](x)");

  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) { y = Neg(x) })");
  model.graph->outputs[0]->type = nullptr;
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R24"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R24"), "graph.output[0](y)");
}

TEST(GraphRules, R24EachTypeKindCarriesItsParts) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 14]>
g (seq(float[2]) s, map(int64, float) m, optional(float[2]) o, sparse_tensor(float[4]) p)
  => (seq(float[2]) y) { y = Identity(s) })");
  EXPECT_TRUE(found.all().empty()) << listed(found);

  // What R24 adds to the type rules on a top-level input or output: a sparse tensor's shape,
  // an opaque type's name (an error here, where R88 elsewhere only warns).
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 14]>
g (sparse_tensor(float[4]) p, seq(float[2]) s) => (seq(float[2]) y) { y = Identity(s) })");
  model.graph->inputs[0]->type->shape = nullptr;
  auto* opaque = GraphEditor(model).arena().make<Type>();
  opaque->kind = Type::Kind::kOpaque;
  model.graph->inputs[1]->type = opaque;
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R24", "R24"})) << listed(found);
  EXPECT_EQ(warningRules(found), kNone) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.input[0](p)");
  EXPECT_EQ(found.all()[1].path, "graph.input[1](s)");

  // The parts every type needs are the type rules', reported once, under their ids.
  model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 14]>
g (seq(float[2]) s, map(int64, float) m) => (seq(float[2]) y) { y = Identity(s) })");
  model.graph->inputs[0]->type->elem = nullptr;
  model.graph->inputs[1]->type->key_type.reset();
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R85", "R86"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.input[0](s).type.sequence_type");
  EXPECT_EQ(found.all()[1].path, "graph.input[1](m).type.map_type.key_type");
}

TEST(GraphRules, R25SubgraphInputsAndOutputsAreNamedButNeedNoType) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 16]>
g (int64 n, bool c, float[2] x) => (float[2] y) {
  y = Loop (n, c, x) <body = step (i, cond, acc) => (cond2, acc2) {
    cond2 = Identity(cond)
    acc2 = Neg(acc)
  }>
})");
  Diagnostics found = checkModel(model);
  EXPECT_TRUE(found.all().empty()) << listed(found);
  Graph* body = model.graph->firstNode()->attributes[0]->g;
  body->inputs[0]->name = "";
  body->inputs[0]->value = nullptr;
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R25"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R25"), "graph.node[0].attribute[0](body).g.input[0]");
}

TEST(GraphRules, R26GraphInputNamesAreUnique) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x, float[2] x) => (float[2] y) { y = Neg(x) })");
  EXPECT_EQ(errorRules(found), (Rules{"R26"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R26"), "graph.input[1](x)");
}

TEST(GraphRules, R27InitializersAreNamedAndUnique) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) <float[2] w = {1, 2}, float[2] w = {3, 4}> { y = Add(x, w) })");
  EXPECT_EQ(errorRules(found), (Rules{"R27"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R27"), "graph.initializer[1](w)");

  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) <float[2] w = {1, 2}, float[2] v = {3, 4}> { y = Add(x, w) })");
  model.graph->initializers[1]->name = "";
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R27"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R27"), "graph.initializer[1]");
}

TEST(GraphRules, R27SparseAndDenseInitializersShareOneNamespace) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) <float[2] w = {1, 2}> { y = Add(x, w) })");
  SparseTensor* sparse = validSparse(GraphEditor(model), "w");
  model.graph->sparse_initializers.push_back(GraphEditor(model).arena(), sparse);
  // The name's definition stays the dense initializer's, as when the decoder meets a second
  // initializer of a name.
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R27"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R27"), "graph.sparse_initializer[0](w)");

  // A sparse initializer without a name is R82's (its name is values.name), not R27's.
  sparse->values->name = "";
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R82"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R82"), "graph.sparse_initializer[0].values");
}

TEST(GraphRules, R28UpToIr3InitializersAreGraphInputs) {
  const char* text = R"(<ir_version: %d, opset_import: ["" : 8]>
g (float[2] x, float[2] w = {1, 2}) => (float[2] y) <float[2] c = {3, 4}> {
  t = Add(x, w)
  y = Add(t, c)
})";
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, text, 3);
  Diagnostics found = checkText(buffer);
  EXPECT_EQ(errorRules(found), (Rules{"R28"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R28"), "graph.initializer[1](c)");
  std::snprintf(buffer, sizeof buffer, text, 4);
  found = checkText(buffer);
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(GraphRules, R29EveryValueHasOneDefinition) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) {
  t = Neg(x)
  t = Relu(x)
  x = Abs(t)
  y = Identity(t)
})");
  // The reads of 'x' before the Abs node read the graph input: only the second
  // definitions are reported.
  EXPECT_EQ(errorRules(found), (Rules{"R29", "R29"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.node[1].output[0]");
  EXPECT_EQ(found.all()[1].path, "graph.node[2].output[0]");
  EXPECT_NE(found.all()[1].message.find("'x' is already a graph input"), std::string::npos)
      << found.all()[1].message;
  // An initializer may share its name with a graph input: it is the input's default.
  found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x, float[2] w) => (float[2] y) <float[2] w = {1, 2}> { y = Add(x, w) })");
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(GraphRules, R29ANodeOutputListedBeforeAnInputOfTheSameName) {
  // In a file nodes come before inputs, so the node's output is the first definition.
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x, float[2] t) => (float[2] y) {
  t = Neg(x)
  y = Identity(t)
})");
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R29"})) << listed(found);
}

TEST(GraphRules, R30ValuesAreDefinedBeforeTheyAreRead) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) {
  u = Add(x, missing)
  v = Neg(w)
  w = Relu(x)
  z = Abs(z)
  y = Sum(u, v, w, z)
})");
  EXPECT_EQ(errorRules(found), (Rules{"R30", "R30", "R30"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.node[0].input[1]");
  EXPECT_NE(found.all()[0].message.find("'missing' is not defined"), std::string::npos);
  EXPECT_EQ(found.all()[1].path, "graph.node[1].input[0]");
  // A value listed too late: the message names the repair.
  EXPECT_EQ(found.all()[1].message,
            "'w' is read before a Relu node computes it; nodes are listed in topological order "
            "(run `onyx convert --sort IN OUT` to reorder them)");
  EXPECT_EQ(found.all()[2].path, "graph.node[3].input[0]");
  // A name nothing defines has no such repair.
  EXPECT_EQ(found.all()[0].message.find("--sort"), std::string::npos);
}

TEST(GraphRules, R30ANestedGraphSeesOnlyWhatIsDefinedBeforeItsNode) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool c, float[2] x) => (float[2] y, float[2] z) {
  early = Neg(x)
  y = If (c) <then_branch = a () => (float[2] p) { p = Add(early, late) },
              else_branch = b () => (float[2] q) { q = Identity(x) }>
  late = Relu(x)
  z = Identity(late)
})");
  EXPECT_EQ(errorRules(found), (Rules{"R30"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R30"), "graph.node[1].attribute[0](then_branch).g.node[0].input[1]");
  EXPECT_NE(found.all()[0].message.find("`onyx convert --sort IN OUT`"), std::string::npos)
      << listed(found);
  // The If's own output is not visible inside its branches either.
  found = checkText(R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool c, float[2] x) => (float[2] y) {
  y = If (c) <then_branch = a () => (float[2] p) { p = Identity(y) },
              else_branch = b () => (float[2] q) { q = Identity(x) }>
})");
  EXPECT_EQ(errorRules(found), (Rules{"R30"})) << listed(found);
}

TEST(GraphRules, R31GraphOutputsAreDefinedInTheirOwnGraph) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y, float[2] nowhere) { y = Neg(x) })");
  EXPECT_EQ(errorRules(found), (Rules{"R31"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R31"), "graph.output[1](nowhere)");

  found = checkText(R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool c, float[2] x) => (float[2] y) {
  y = If (c) <then_branch = a () => (float[2] x) { },
              else_branch = b () => (float[2] q) { q = Identity(x) }>
})");
  EXPECT_EQ(errorRules(found), (Rules{"R31"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R31"), "graph.node[0].attribute[0](then_branch).g.output[0](x)");
  // A main graph may return its own input.
  found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] x) { })");
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(GraphRules, R32NestedGraphsDoNotShadowVisibleNames) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 16]>
g (int64 n, bool c, float[2] x) => (float[2] y) {
  t = Neg(x)
  y = Loop (n, c, x) <body = step (i, x, acc) => (cond2, acc2) <float[2] t = {1, 1}> {
    cond2 = Identity(c)
    acc2 = Add(acc, t)
    n = Identity(i)
  }>
})");
  EXPECT_EQ(errorRules(found), (Rules{"R32", "R32", "R32"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.node[1].attribute[0](body).g.input[1](x)");
  EXPECT_EQ(found.all()[1].path, "graph.node[1].attribute[0](body).g.initializer[0](t)");
  EXPECT_EQ(found.all()[2].path, "graph.node[1].attribute[0](body).g.node[2].output[0]");
}

TEST(GraphRules, R32NamesDefinedLaterOrInSiblingGraphsAreNotVisible) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool c, float[2] x) => (float[2] y, float[2] t) {
  y = If (c) <then_branch = a () => (float[2] t) { t = Identity(x) },
              else_branch = b () => (float[2] t) { t = Neg(x) }>
  t = Relu(y)
})");
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(GraphRules, R33FromIr4ASubgraphInputIsNoInitializer) {
  const char* text = R"(<ir_version: %d, opset_import: ["" : 8]>
g (int64 n, bool c, float[2] x) => (float[2] y) {
  y = Loop (n, c, x) <body = step (i, cond, acc, float[2] k) => (cond2, acc2)
      <float[2] k = {1, 1}> {
    cond2 = Identity(cond)
    acc2 = Add(acc, k)
  }>
})";
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, text, 4);
  Diagnostics found = checkText(buffer);
  EXPECT_EQ(errorRules(found), (Rules{"R33"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R33"), "graph.node[0].attribute[0](body).g.initializer[0](k)");
  // Up to IR 3 it is allowed, after the inputs the operator passes.
  std::snprintf(buffer, sizeof buffer, text, 3);
  found = checkText(buffer);
  EXPECT_TRUE(errorRules(found).empty()) << listed(found);
}

TEST(GraphRules, R33UpToIr3InitializerBackedInputsComeLast) {
  Diagnostics found = checkText(R"(<ir_version: 3, opset_import: ["" : 8]>
g (int64 n, bool c, float[2] x) => (float[2] y) {
  y = Loop (n, c, x) <body = step (i, float[2] k, cond, acc) => (cond2, acc2)
      <float[2] k = {1, 1}> {
    cond2 = Identity(cond)
    acc2 = Add(acc, k)
  }>
})");
  EXPECT_EQ(errorRules(found), (Rules{"R33", "R33"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R33"), "graph.node[0].attribute[0](body).g.input[2](cond)");
}

TEST(GraphRules, R34ValueInfoNamesAreDistinct) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) { t = Neg(x)  y = Neg(t) })");
  GraphEditor edit(model);

  for (int i = 0; i < 2; ++i) {
    auto* info = edit.arena().make<ValueInfo>();
    info->name = "t";
    info->value = model.graph->names().find("t");
    model.graph->value_info.push_back(edit.arena(), info);
  }
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R34"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R34"), "graph.value_info[1](t)");
}

TEST(GraphRules, R34OneValueInfoEntryPerValueIsFine) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) { t = Neg(x)  u = Neg(t)  y = Neg(u) })");
  GraphEditor(model).setType(model.graph->names().find("t"), GraphEditor(model).tensorType(1, {2}));
  GraphEditor(model).setType(model.graph->names().find("u"), GraphEditor(model).tensorType(1, {2}));
  ASSERT_EQ(model.graph->value_info.size(), 2u);
  Diagnostics found = checkModel(model);
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(GraphRules, R4GraphsNestWithinABound) {
  // Only the graph API can nest this deep: a decoded model is bounded by max_depth first.
  // A custom operator holds each level, so that no operator's signature gets in the way
  // (the signature rules warn once that it is not checked: R41).
  auto nested = [](int levels) {
    Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 16, "com.x" : 1]>
g (bool c) => (bool y) { y = com.x.Wrap(c) })");
    GraphEditor edit(model);
    Node* node = model.graph->firstNode();
    for (int level = 0; level < levels; ++level) {
      Graph* sub = edit.setGraphAttr(node, "body");
      sub->name = "level";
      Node* inner = edit.createNode(*sub, "Wrap", {}, 1);
      inner->domain = "com.x";
      sub->appendNode(inner);
      node = inner;
    }
    return model;
  };
  Model deep = nested(300);
  Diagnostics found = checkModel(deep);
  EXPECT_EQ(errorRules(found), (Rules{"R4"})) << listed(found);
  Model within = nested(200);
  found = checkModel(within);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R41"})) << listed(found);
}

TEST(GraphRules, X1AndX2ValueInfoIsNamedAndNamesAValue) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) { y = Neg(x) })");
  GraphEditor edit(model);

  auto* unnamed = edit.arena().make<ValueInfo>();
  unnamed->name = "";
  auto* stale = edit.arena().make<ValueInfo>();
  stale->name = "gone";
  model.graph->value_info.push_back(edit.arena(), unnamed);
  model.graph->value_info.push_back(edit.arena(), stale);
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"X1"})) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"X2"})) << listed(found);
  EXPECT_EQ(pathOf(found, "X2"), "graph.value_info[1](gone)");
}

TEST(GraphRules, R35NodeNamesShouldBeUnique) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) {
  [n] t = Neg(x)
  [n] y = Neg(t)
  [x] z = Neg(t)
})");
  // A warning: node and value names are separate namespaces, so 'x' is fine.
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R35"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R35"), "graph.node[1](n)");
}

TEST(GraphRules, R37GraphFieldsNewerThanTheModelAreWarnedAbout) {
  Model model = testing::parseOrFail(R"(<ir_version: 4, opset_import: ["" : 9]>
g (float[2] x) => (float[2] y) { y = Neg(x) })");
  GraphEditor edit(model);

  edit.quantizationAnnotation(*model.graph, "y");
  edit.setMetadata(model.graph->metadata_props, "k", "v");
  model.graph->sparse_initializers.push_back(edit.arena(), validSparse(edit, "s"));
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R37", "R37", "R37"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.quantization_annotation");
  EXPECT_EQ(found.all()[1].path, "graph.sparse_initializer");
  EXPECT_EQ(found.all()[2].path, "graph.metadata_props");
  model.ir_version = 10;
  found = checkModel(model);
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(GraphRules, R38NameStyleIsAnOptInWarning) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] "in/0") => (float[2] y) { ["conv.1"] y = Neg("in/0") })";
  EXPECT_TRUE(checkText(text).all().empty());
  CheckOptions options;
  options.name_style = true;
  Diagnostics found = checkText(text, options);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R38", "R38"})) << listed(found);
}

TEST(GraphRules, NamesInPathsAndMessagesStayOnOneLine) {
  // A quoted name holds any byte, a newline and a tab included.
  Diagnostics found = checkText(
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "g (float[2] x) => (float[2] y) { [\"two\nlines\"] y = Neg(\"a\tb\") }");
  ASSERT_EQ(errorRules(found), (Rules{"R30"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.node[0](two\\nlines).input[0]");
  EXPECT_EQ(found.all()[0].message.find('\t'), std::string::npos);
  EXPECT_NE(found.all()[0].message.find("'a\\tb'"), std::string::npos) << found.all()[0].message;
}

}  // namespace
}  // namespace onyx
