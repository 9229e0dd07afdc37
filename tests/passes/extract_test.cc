// extractModel: the part between named values computes what the model computes there; what it
// does not read goes; a boundary that cannot be cut is refused, naming why, the model unchanged.
#include "onyx/passes/extract.h"

#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/ir/clone.h"
#include "onyx/text/printer.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::bytesOf;
using testing::opTypes;
using testing::parseOrFail;
using testing::tensorOf;
using testing::valuesOf;
using testing::verified;

constexpr std::string_view kChain = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[2] x, float[2] y) => (float[2] z, float[2] w) <float[2] k = {2, 3}> {
    a = Add (x, y)
    b = Mul (a, k)
    c = Relu (b)
    z = Sigmoid (c)
    w = Neg (a)
  })";

ExtractBoundary between(std::vector<std::string> inputs, std::vector<std::string> outputs) {
  ExtractBoundary boundary;
  boundary.inputs = std::move(inputs);
  boundary.outputs = std::move(outputs);
  return boundary;
}

// The part of `text` between the names, checked: consistent, and valid to the checker.
Model extracted(std::string_view text, const ExtractBoundary& boundary) {
  Model model = parseOrFail(text);
  Result<ExtractReport> report = extractModel(model, boundary);
  EXPECT_TRUE(report.isOk()) << report.status().toString();
  EXPECT_TRUE(verified(model));
  Diagnostics diagnostics = checkModel(model);
  EXPECT_FALSE(diagnostics.hasErrors()) << testing::listed(diagnostics);
  return model;
}

std::string inputNames(const Graph& graph) {
  std::string names;
  for (const ValueInfo* input : graph.inputs) names += std::string(input->value->name()) + " ";
  return names;
}

std::string outputNames(const Graph& graph) {
  std::string names;
  for (const ValueInfo* output : graph.outputs) names += std::string(output->bound()->name()) + " ";
  return names;
}

// The status of extracting `boundary` from `text`, which must fail and leave the model's bytes
// as they were.
Status refusal(std::string_view text, const ExtractBoundary& boundary) {
  Model model = parseOrFail(text);
  std::string before = bytesOf(model);
  Result<ExtractReport> report = extractModel(model, boundary);
  EXPECT_FALSE(report.isOk());
  EXPECT_EQ(bytesOf(model), before);
  return report.isOk() ? Status::ok() : report.status();
}

TEST(Extract, TheWholeModelIsTheSameModel) {
  Model model = parseOrFail(kChain);
  std::string before = bytesOf(model);
  Result<ExtractReport> report = extractModel(model, {});
  ASSERT_TRUE(report.isOk()) << report.status().toString();
  EXPECT_EQ(bytesOf(model), before);
  EXPECT_EQ(report->nodes_kept, 5u);
  EXPECT_EQ(report->nodes_removed, 0u);
  // Named in full, in the model's order, the same too.
  Model named = parseOrFail(kChain);
  ASSERT_TRUE(extractModel(named, between({"x", "y"}, {"z", "w"})).isOk());
  EXPECT_EQ(bytesOf(named), before);
}

TEST(Extract, ComputedValuesBecomeInputsOfTheirTypeUnderTheirNames) {
  Model part = extracted(kChain, between({"b"}, {"z"}));
  EXPECT_EQ(opTypes(*part.graph), "Relu Sigmoid");
  EXPECT_EQ(inputNames(*part.graph), "b ");
  EXPECT_EQ(outputNames(*part.graph), "z ");
  // No value_info declared b: inference gave its type.
  std::string text = printModel(part);
  EXPECT_NE(text.find("float[2] b"), std::string::npos) << text;
  EXPECT_TRUE(part.graph->initializers.empty());
}

TEST(Extract, PartsComputeTheOriginalsValuesExactly) {
  std::vector<NamedValue> inputs{{"x", tensorOf<float>(ElementType::kFloat, {2}, {0.25f, -3})},
                                 {"y", tensorOf<float>(ElementType::kFloat, {2}, {1.5f, 0.125f})}};
  Model whole = parseOrFail(kChain);
  auto expected = evaluate(whole, inputs);
  ASSERT_TRUE(expected.isOk());
  // x, y -> a, then a -> z, w: the two halves chained.
  Model first = extracted(kChain, between({"x", "y"}, {"a"}));
  Model second = extracted(kChain, between({"a"}, {"z", "w"}));
  EXPECT_EQ(opTypes(*first.graph), "Add");
  EXPECT_EQ(opTypes(*second.graph), "Mul Relu Sigmoid Neg");
  auto a = evaluate(first, inputs);
  ASSERT_TRUE(a.isOk());
  std::vector<NamedValue> middle{{"a", (*a)[0]}};
  auto rest = evaluate(second, middle);
  ASSERT_TRUE(rest.isOk()) << rest.status().toString();
  EXPECT_EQ(valuesOf<float>((*rest)[0]), valuesOf<float>((*expected)[0]));
  EXPECT_EQ(valuesOf<float>((*rest)[1]), valuesOf<float>((*expected)[1]));
}

TEST(Extract, OutputsComeInTheOrderNamedAndMayBeIntermediateValues) {
  Model part = extracted(kChain, between({"x", "y"}, {"w", "b", "z"}));
  EXPECT_EQ(outputNames(*part.graph), "w b z ");
  EXPECT_EQ(opTypes(*part.graph), "Add Mul Relu Sigmoid Neg");
}

TEST(Extract, UnsetInputsAreTheModelsInputsThePartReads) {
  ExtractBoundary boundary;
  boundary.outputs = std::vector<std::string>{"w"};
  Model part = extracted(kChain, boundary);
  EXPECT_EQ(inputNames(*part.graph), "x y ");
  EXPECT_EQ(opTypes(*part.graph), "Add Neg");
  EXPECT_TRUE(part.graph->initializers.empty());

  // A model input the part does not read goes when the inputs are not named...
  constexpr std::string_view kTwoBranches = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, float[2] y) => (float[2] p, float[2] q) {
      p = Neg (x)
      q = Abs (y)
    })";
  Model only_p = extracted(kTwoBranches, boundary = {std::nullopt, std::vector<std::string>{"p"}});
  EXPECT_EQ(inputNames(*only_p.graph), "x ");
  // ... and stays, reported, when it is named.
  Model model = parseOrFail(kTwoBranches);
  auto report = extractModel(model, between({"x", "y"}, {"p"}));
  ASSERT_TRUE(report.isOk());
  EXPECT_EQ(inputNames(*model.graph), "x y ");
  EXPECT_EQ(report->unread_inputs, std::vector<std::string>{"y"});
}

TEST(Extract, InputsWithADefaultThePartReadsKeepIt) {
  constexpr std::string_view kDefaults = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, float[2] scale, float[2] unused) => (float[2] y)
      <float[2] scale = {2, 4}, float[2] unused = {0, 0}> {
      s = Mul (x, scale)
      y = Relu (s)
    })";
  Model part = extracted(kDefaults, between({"s"}, {"y"}));
  EXPECT_EQ(inputNames(*part.graph), "s ");
  EXPECT_TRUE(part.graph->initializers.empty());
  Model with_scale = extracted(kDefaults, between({"x"}, {"y"}));
  // Read, not named: kept after the named ones, with its default; the unread one goes.
  EXPECT_EQ(inputNames(*with_scale.graph), "x scale ");
  ASSERT_EQ(with_scale.graph->initializers.size(), 1u);
  EXPECT_EQ(with_scale.graph->initializers[0]->nameOrEmpty(), "scale");
  // An initializer named as an input becomes one with that default.
  Model named = extracted(kChain, between({"a", "k"}, {"b"}));
  EXPECT_EQ(inputNames(*named.graph), "a k ");
  EXPECT_EQ(named.graph->initializers.size(), 1u);
}

TEST(Extract, ValuesReadInsideSubgraphsKeepTheirNodes) {
  constexpr std::string_view kBranches = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] y) {
      n = Neg (x)
      m = Abs (x)
      unused = Exp (x)
      y = If (c) <
        then_branch = t () => (float[2] r) { r = Identity (n) },
        else_branch = e () => (float[2] r) { r = Identity (m) }
      >
    })";
  Model part = extracted(kBranches, between({"x", "c"}, {"y"}));
  EXPECT_EQ(opTypes(*part.graph), "Neg Abs If");
  // Cut at n: its node goes, the branch reads the input n.
  Model cut = extracted(kBranches, between({"n", "x", "c"}, {"y"}));
  EXPECT_EQ(opTypes(*cut.graph), "Abs If");
  EXPECT_EQ(inputNames(*cut.graph), "n x c ");
}

TEST(Extract, FunctionsNoKeptNodeCallsGo) {
  constexpr std::string_view kFunctions = R"(
    <ir_version: 8, opset_import: ["" : 17, "local" : 1]>
    g (float[2] x) => (float[2] y, float[2] z) {
      y = local.Twice (x)
      z = local.Thrice (x)
    }
    <domain: "local", opset_import: ["" : 17]>
    Twice (a) => (b) { b = Add (a, a) }
    <domain: "local", opset_import: ["" : 17]>
    Thrice (a) => (b) { t = Add (a, a)  b = Add (t, a) }
  )";
  Model model = parseOrFail(kFunctions);
  auto report = extractModel(model, between({"x"}, {"y"}));
  ASSERT_TRUE(report.isOk()) << report.status().toString();
  EXPECT_EQ(report->functions_removed, 1u);
  ASSERT_EQ(model.functions.size(), 1u);
  EXPECT_EQ(model.functions[0]->nameOrEmpty(), "Twice");
}

TEST(Extract, UnknownAndRepeatedNamesAreRefusedAllAtOnce) {
  Status unknown = refusal(kChain, between({"x", "nope"}, {"z", "missing"}));
  EXPECT_EQ(unknown.code(), ErrorCode::kNotFound);
  EXPECT_NE(unknown.message().find("'nope'"), std::string::npos) << unknown.message();
  EXPECT_NE(unknown.message().find("'missing'"), std::string::npos) << unknown.message();
  Status twice = refusal(kChain, between({"x", "y", "x"}, {"z"}));
  EXPECT_NE(twice.message().find("'x' is named twice among the inputs"), std::string::npos)
      << twice.message();
}

TEST(Extract, OutputsTheInputsDoNotReachAreNamedWithWhatTheyNeed) {
  Status status = refusal(kChain, between({"x"}, {"z", "w", "k"}));
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "the inputs do not reach output 'z': it depends on 'y', a graph input not among them; "
            "nor output 'w': it depends on 'y', a graph input not among them");
}

TEST(Extract, AnInputWhoseNodeAlsoComputesWhatThePartNeedsIsRefused) {
  constexpr std::string_view kSplit = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[4] x) => (float[2] y) {
      p, q = Split <num_outputs = 2> (x)
      y = Add (p, q)
    })";
  Status status = refusal(kSplit, between({"p", "x"}, {"y"}));
  EXPECT_EQ(status.message(),
            "'p' cannot be an input: node[0] (Split), which computes it, computes other values "
            "the outputs need");
  // Both of its outputs cut: the node goes.
  Model part = extracted(kSplit, between({"p", "q"}, {"y"}));
  EXPECT_EQ(opTypes(*part.graph), "Add");
}

TEST(Extract, ANameReadButDefinedNowhereIsNoInput) {
  constexpr std::string_view kGhost = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] y) {
      y = Add (x, ghost)
    })";
  Status status = refusal(kGhost, between({"x", "ghost"}, {"y"}));
  EXPECT_EQ(status.message(),
            "'ghost' cannot be an input: the graph reads it but nothing defines it");
  Status unreached = refusal(kGhost, between({"x"}, {"y"}));
  EXPECT_EQ(unreached.message(),
            "the inputs do not reach output 'y': it depends on 'ghost', which nothing defines");
}

TEST(Extract, ACycleInThePartIsRefusedNamingItsNodes) {
  // A model built with a cycle: b reads c, which is computed from b.
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] y) {
      a = Add (x, c)
      b = Neg (a)
      c = Abs (b)
      y = Relu (b)
    })");
  std::string before = bytesOf(model);
  auto report = extractModel(model, between({"x"}, {"y"}));
  ASSERT_FALSE(report.isOk());
  EXPECT_EQ(report.status().message(),
            "the part to extract has a cycle: node[1] (Neg) -> node[0] (Add) -> node[2] (Abs) -> "
            "node[1] (Neg) (reading each other's outputs)");
  EXPECT_EQ(bytesOf(model), before);
  // Cut inside the cycle, the part is a chain.
  Model cut = parseOrFail(printModel(model));
  ASSERT_TRUE(extractModel(cut, between({"a"}, {"y"})).isOk());
  EXPECT_EQ(opTypes(*cut.graph), "Neg Relu");
}

}  // namespace
}  // namespace onyx
