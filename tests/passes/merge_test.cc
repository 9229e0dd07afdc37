// mergeModels and prefixNames: B after A in one graph, B's connected inputs reading A's
// outputs; names told apart by prefixes; clashing names or types refused with A unchanged.
#include "onyx/passes/merge.h"

#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/passes/extract.h"
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

Model part(std::string_view text, std::vector<std::string> inputs,
           std::vector<std::string> outputs) {
  Model model = parseOrFail(text);
  auto report = extractModel(model, {std::move(inputs), std::move(outputs)});
  EXPECT_TRUE(report.isOk()) << report.status().toString();
  return model;
}

MergeOptions connecting(std::vector<std::pair<std::string, std::string>> connections,
                        std::string prefix_a = {}, std::string prefix_b = {}) {
  MergeOptions options;
  options.connections = std::move(connections);
  options.prefix_a = std::move(prefix_a);
  options.prefix_b = std::move(prefix_b);
  return options;
}

// Merges, expecting success, a consistent model and one the checker finds valid.
MergeReport merged(Model& a, Model& b, const MergeOptions& options) {
  auto report = mergeModels(a, b, options);
  EXPECT_TRUE(report.isOk()) << report.status().toString();
  EXPECT_TRUE(verified(a));
  Diagnostics diagnostics = checkModel(a);
  EXPECT_FALSE(diagnostics.hasErrors()) << testing::listed(diagnostics) << printModel(a);
  return report.isOk() ? *report : MergeReport{};
}

// Merging must fail and leave A's bytes as they were; the error.
Status refusal(Model a, Model b, const MergeOptions& options) {
  std::string before = bytesOf(a);
  auto report = mergeModels(a, b, options);
  EXPECT_FALSE(report.isOk());
  EXPECT_EQ(bytesOf(a), before);
  return report.isOk() ? Status::ok() : report.status();
}

TEST(Merge, TwoExtractedHalvesMakeTheWholeAgain) {
  Model first = part(kChain, {"x", "y"}, {"a"});
  Model second = part(kChain, {"a"}, {"z", "w"});
  MergeReport report = merged(first, second, connecting({{"a", "a"}}));
  EXPECT_EQ(report.nodes_a, 1u);
  EXPECT_EQ(report.nodes_b, 4u);
  EXPECT_EQ(printModel(first), printModel(parseOrFail(kChain)));
  std::vector<NamedValue> inputs{{"x", tensorOf<float>(ElementType::kFloat, {2}, {0.5f, -4})},
                                 {"y", tensorOf<float>(ElementType::kFloat, {2}, {2, 0.75f})}};
  auto expected = evaluate(parseOrFail(kChain), inputs);
  auto got = evaluate(first, inputs);
  ASSERT_TRUE(expected.isOk() && got.isOk());
  EXPECT_EQ(valuesOf<float>((*got)[0]), valuesOf<float>((*expected)[0]));
  EXPECT_EQ(valuesOf<float>((*got)[1]), valuesOf<float>((*expected)[1]));
}

TEST(Merge, PrefixesTellTheModelsApartAndConnectionsUseTheirOwnNames) {
  Model first = part(kChain, {"x", "y"}, {"a"});
  Model second = part(kChain, {"a"}, {"z", "w"});
  merged(first, second, connecting({{"a", "a"}}, "A/", "B/"));
  std::string text = printModel(first);
  EXPECT_NE(text.find(R"("A/a" = Add("A/x", "A/y"))"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("B/b" = Mul("A/a", "B/k"))"), std::string::npos) << text;
  // The same model twice, side by side.
  Model a = parseOrFail(kChain);
  Model b = parseOrFail(kChain);
  merged(a, b, connecting({}, "", "twin."));
  EXPECT_EQ(a.graph->inputs.size(), 4u);
  EXPECT_EQ(a.graph->outputs.size(), 4u);
  EXPECT_EQ(opTypes(*a.graph), "Add Mul Relu Sigmoid Neg Add Mul Relu Sigmoid Neg");
}

TEST(Merge, PrefixingNamesThatAlreadyStartWithThePrefix) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] p_x) {
      p_p_x = Neg (x)
      p_x = If (c) <
        then_branch = t () => (float[2] x2) { x2 = Identity (p_p_x) },
        else_branch = e () => (float[2] x3) { x3 = Identity (x) }
      >
    })");
  ASSERT_TRUE(prefixNames(model, "p_"));
  EXPECT_TRUE(verified(model));
  std::string text = printModel(model);
  EXPECT_NE(text.find("p_p_p_x = Neg(p_x)"), std::string::npos) << text;
  EXPECT_NE(text.find("p_x2 = Identity(p_p_p_x)"), std::string::npos) << text;
  EXPECT_NE(text.find("=> (float[2] p_p_x)"), std::string::npos) << text;
}

TEST(Merge, GraphsSideBySideMayShareNamesButNotShadowTheMainGraphs) {
  constexpr std::string_view kBranch = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] y) {
      y = If (c) <
        then_branch = t () => (float[2] r) { r = Neg (x) },
        else_branch = e () => (float[2] r) { r = Abs (x) }
      >
    })";
  Model a = parseOrFail(kBranch);
  Model b = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    h (float[2] x2, bool c2) => (float[2] y2) {
      y2 = If (c2) <
        then_branch = t () => (float[2] r) { r = Exp (x2) },
        else_branch = e () => (float[2] r) { r = Log (x2) }
      >
    })");
  merged(a, b, {});
  EXPECT_EQ(opTypes(*a.graph), "If If");
  // A main-graph name of B that a branch of A defines would be shadowed there.
  Status shadowed = refusal(parseOrFail(kBranch), parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    h (float[2] x2) => (float[2] r) {
      r = Exp (x2)
    })"),
                            {});
  EXPECT_EQ(shadowed.message(),
            "both models define 'r'; prefixes (prefix_a, prefix_b) tell them apart");
}

TEST(Merge, AnInitializerBothHoldAlikeIsKeptOnce) {
  constexpr std::string_view kTied = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] b) <float[2] k = {2, 3}> {
      a = Mul (x, k)
      b = Add (a, k)
    })";
  Model first = part(kTied, {"x"}, {"a"});
  Model second = part(kTied, {"a"}, {"b"});
  merged(first, second, connecting({{"a", "a"}}));
  EXPECT_EQ(first.graph->initializers.size(), 1u);
  EXPECT_EQ(printModel(first), printModel(parseOrFail(kTied)));
  // The same name holding other numbers is a clash.
  std::string other(kTied);
  other.replace(other.find("{2, 3}"), 6, "{2, 4}");
  Status clash =
      refusal(part(kTied, {"x"}, {"a"}), part(other, {"a"}, {"b"}), connecting({{"a", "a"}}));
  EXPECT_EQ(clash.message(),
            "both models define 'k'; prefixes (prefix_a, prefix_b) tell them apart");
}

TEST(Merge, AnInputBothDeclareAlikeIsReadOnce) {
  constexpr std::string_view kOther = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    h (float[2] x) => (float[2] q) {
      q = Exp (x)
    })";
  Model a = parseOrFail(kChain);
  Model b = parseOrFail(kOther);
  MergeReport report = merged(a, b, {});
  EXPECT_EQ(report.shared_inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(a.graph->inputs.size(), 2u);
  EXPECT_EQ(a.graph->outputs.size(), 3u);
  // Declared differently, refused.
  Status clash = refusal(
      parseOrFail(kChain),
      parseOrFail(std::string(kOther).replace(kOther.find("float[2] x"), 10, "float[3] x")), {});
  EXPECT_EQ(clash.message(),
            "both models take input 'x', of clashing types: float[2] against float[3] (dimension "
            "0)");
}

TEST(Merge, ClashingNamesAreRefusedNamingThem) {
  Status status = refusal(parseOrFail(kChain), parseOrFail(kChain), connecting({{"z", "y"}}));
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "input 'y' of B cannot read output 'z' of A: B defines 'z' too");
  // Not connected, B's input would read A's value of that name unasked.
  Status unasked = refusal(part(kChain, {"x", "y"}, {"a"}), part(kChain, {"a"}, {"z"}), {});
  EXPECT_EQ(unasked.message(),
            "input 'a' of B has the name of a value of A; connect them, or give prefixes "
            "(prefix_a, prefix_b)");
  // Inputs shared, but both compute a.
  Status defined = refusal(part(kChain, {"x", "y"}, {"a"}), part(kChain, {"x", "y"}, {"w"}), {});
  EXPECT_EQ(defined.message(),
            "both models define 'a'; prefixes (prefix_a, prefix_b) tell them apart");
}

TEST(Merge, ConnectionsNamingNothingOrOfClashingTypesAreRefused) {
  Status unknown = refusal(parseOrFail(kChain), parseOrFail(kChain),
                           connecting({{"nope", "x"}, {"z", "nah"}}, "", "b."));
  EXPECT_EQ(unknown.code(), ErrorCode::kNotFound);
  EXPECT_EQ(unknown.message(), "the connections name no output 'nope' of A, no input 'nah' of B");
  constexpr std::string_view kInts = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    h (int64[2] n) => (int64[2] m) {
      m = Neg (n)
    })";
  Status types = refusal(parseOrFail(kChain), parseOrFail(kInts), connecting({{"z", "n"}}));
  EXPECT_EQ(types.message(),
            "output 'z' of A and input 'n' of B clash: float[2] against int64[2] ");
}

TEST(Merge, OperatorSetsAtDifferentVersionsAreBroughtToTheHigher) {
  Model a = parseOrFail(kChain);
  Model b = parseOrFail(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    h (float[2] z2) => (float[2] m) {
      m = Relu (z2)
    })");
  MergeReport report = merged(a, b, connecting({{"z", "z2"}}));
  EXPECT_EQ(report.conversions, std::vector<std::string>{"B: ai.onnx 12 -> 17"});
  EXPECT_EQ(a.opsetVersion(""), 17);
  EXPECT_EQ(a.ir_version, 8);
}

TEST(Merge, FunctionsJoinOneOfTwoTheSame) {
  constexpr std::string_view kCalls = R"(
    <ir_version: 8, opset_import: ["" : 17, "local" : 1]>
    g (float[2] x) => (float[2] y) {
      y = local.Twice (x)
    }
    <domain: "local", opset_import: ["" : 17]>
    Twice (a) => (b) { b = Add (a, a) }
  )";
  Model a = parseOrFail(kCalls);
  Model b = parseOrFail(kCalls);
  merged(a, b, connecting({{"y", "x"}}, "", "b."));
  EXPECT_EQ(a.functions.size(), 1u);
  std::string other(kCalls);
  other.replace(other.find("Add (a, a)"), 10, "Mul (a, a)");
  Status status =
      refusal(parseOrFail(kCalls), parseOrFail(other), connecting({{"y", "x"}}, "", "b."));
  EXPECT_EQ(status.message(), "both models define function 'Twice' of domain 'local', differently");
}

}  // namespace
}  // namespace onyx
