// The pattern rewriter: patterns in C++ and in the text syntax, commutative operands,
// predicates, multi-output nodes, graph outputs, and malformed rules.
#include "onyx/passes/pattern.h"

#include <gtest/gtest.h>

#include <optional>

#include "onyx/eval/evaluator.h"
#include "onyx/eval/test_case.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/verify.h"
#include "onyx/passes/pass_manager.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::opTypes;
using testing::parseOrFail;
using testing::tensorOf;

// Whether `value` is a constant whose elements are all zero.
bool isZero(const Value& value, const MatchContext& context) {
  const Tensor* tensor = context.constantOf(&value);
  if (tensor == nullptr) return false;
  Result<Array> array = arrayFromTensor(*tensor);
  if (!array || array->type() != ElementType::kFloat) return false;
  for (size_t i = 0; i < array->size(); ++i) {
    if (array->data<float>()[i] != 0.0f) return false;
  }
  return true;
}

// Add(x, 0) → x, in C++.
RewriteRule addZero() {
  Pattern pattern;
  PatternValue x = pattern.var("x");
  pattern.op("Add", {x, pattern.var("zero").where(isZero)});
  RewriteRule rule;
  rule.name = "add-zero";
  rule.pattern = std::move(pattern);
  rule.rewrite = [x](const Match& match, RewriteBuilder&) {
    return std::vector<Value*>{match.value(x)};
  };
  return rule;
}

// Runs `rules` to a fixed point on `text`; the model after, verified.
Model rewritten(std::string_view text, std::vector<RewriteRule> rules,
                PassResult* changes = nullptr) {
  Model model = parseOrFail(text);
  RuleSet set;
  for (RewriteRule& rule : rules) EXPECT_TRUE(set.add(std::move(rule)).isOk());
  PassManagerOptions options;
  options.verify = true;
  PassManager manager(options);
  manager.add(makeRewritePass("test-rules", "rules under test", std::move(set)));
  PassContext context;
  Result<PassManagerReport> report = manager.run(model, context);
  EXPECT_TRUE(report) << report.status().toString();
  if (report && changes != nullptr) *changes = report->total();
  EXPECT_TRUE(testing::verified(model));
  return model;
}

std::vector<RewriteRule> one(RewriteRule rule) {
  std::vector<RewriteRule> rules;
  rules.push_back(std::move(rule));
  return rules;
}

constexpr std::string_view kAddZeroBothWays = R"(
  <ir_version: 10, opset_import: ["" : 18]>
  g (float[2] x) => (float[2] y) <float[2] zero = {0, 0}> {
    a = Relu (x)
    b = Add (a, zero)
    c = Add (zero, b)
    y = Neg (c)
  })";

TEST(Pattern, ACppRuleMatchesCommutativeOperandsInEitherOrder) {
  PassResult changes;
  Model model = rewritten(kAddZeroBothWays, one(addZero()), &changes);
  EXPECT_EQ(opTypes(*model.graph), "Relu Neg");
  EXPECT_EQ(changes.nodes_removed, 2u);
}

TEST(Pattern, CommutingCanBeTurnedOff) {
  Pattern pattern;
  PatternValue x = pattern.var("x");
  pattern.op("Add", {x, pattern.var("zero").where(isZero)}).commutative(false);
  RewriteRule rule{
      "add-zero-right", std::move(pattern), nullptr,
      [x](const Match& match, RewriteBuilder&) { return std::vector<Value*>{match.value(x)}; }};
  Model model = rewritten(kAddZeroBothWays, one(std::move(rule)));
  EXPECT_EQ(opTypes(*model.graph), "Relu Add Neg");
}

TEST(Pattern, CommutingFollowsTheOperatorsTraitOrIsTurnedOn) {
  // Max(a, zero) matches only as written: Max is not commutative (OpTraits), so
  // Max(zero, b) stays unless the pattern says its inputs commute.
  constexpr std::string_view kMaxZeroBothWays = R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) <float[2] zero = {0, 0}> {
      a = Neg (x)
      b = Max (a, zero)
      c = Max (zero, b)
      y = Neg (c)
    })";
  auto maxZero = [](std::optional<bool> commutative) {
    Pattern pattern;
    PatternValue x = pattern.var("x");
    PatternNode max = pattern.op("Max", {x, pattern.var("zero").where(isZero)});
    if (commutative) max.commutative(*commutative);
    return RewriteRule{
        "max-zero-is-relu", std::move(pattern), nullptr,
        [x](const Match& match, RewriteBuilder& builder) {
          return std::vector<Value*>{builder.add("Relu", {match.value(x)}).output(0)};
        }};
  };
  EXPECT_EQ(opTypes(*rewritten(kMaxZeroBothWays, one(maxZero(std::nullopt))).graph),
            "Neg Relu Max Neg");
  EXPECT_EQ(opTypes(*rewritten(kMaxZeroBothWays, one(maxZero(true))).graph), "Neg Relu Relu Neg");
}

TEST(Pattern, ARewriteAtAGraphOutputRenamesOrIsRefused) {
  // y = Add(Relu(x), 0): Relu's output takes the name y. z = Add(x, 0) with x a graph input:
  // x cannot be renamed, so the Add stays.
  Model model = rewritten(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y, float[2] z) <float[2] zero = {0, 0}> {
      r = Relu (x)
      y = Add (r, zero)
      z = Add (x, zero)
    })",
                          one(addZero()));
  const Graph& graph = *model.graph;
  EXPECT_EQ(opTypes(graph), "Relu Add");
  EXPECT_EQ(graph.outputs[0]->bound()->name(), "y");
  EXPECT_EQ(graph.outputs[0]->bound()->producer()->opType(), "Relu");
  EXPECT_EQ(graph.outputs[1]->bound()->name(), "z");
}

TEST(Pattern, AMultiOutputNodeMatchesOnlyWhenNothingElseReadsItsOutputs) {
  // Concat(Split(x)) along the same axis is x; Relu keeps y's name apart from x.
  auto rule = [] {
    Pattern pattern;
    PatternValue x = pattern.var("x");
    PatternNode split = pattern.op("Split", {x}, 2).attr("axis", int64_t{0}).anyOtherAttributes();
    pattern.op("Concat", {split.output(0), split.output(1)}).attr("axis", int64_t{0});
    return RewriteRule{
        "split-concat", std::move(pattern), nullptr,
        [x](const Match& match, RewriteBuilder&) { return std::vector<Value*>{match.value(x)}; }};
  };
  Model model = rewritten(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y) {
      a, b = Split <num_outputs = 2> (x)
      c = Concat <axis = 0> (a, b)
      y = Relu (c)
    })",
                          one(rule()));
  EXPECT_EQ(opTypes(*model.graph), "Relu");
  Model kept = rewritten(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y, float[2] z) {
      a, b = Split <num_outputs = 2> (x)
      c = Concat <axis = 0> (a, b)
      y = Relu (c)
      z = Neg (b)
    })",
                         one(rule()));
  EXPECT_EQ(opTypes(*kept.graph), "Split Concat Relu Neg");
}

TEST(Pattern, AttributesMustEqualTheirValueOrDefault) {
  // Concat axis 0 pattern against axis 1: no match. Split's axis is left out: the default 0.
  Pattern pattern;
  PatternValue x = pattern.var("x");
  PatternNode split = pattern.op("Split", {x}, 2).attr("axis", int64_t{0}).anyOtherAttributes();
  pattern.op("Concat", {split.output(0), split.output(1)}).attr("axis", int64_t{0});
  RewriteRule rule{
      "split-concat", std::move(pattern), nullptr,
      [x](const Match& match, RewriteBuilder&) { return std::vector<Value*>{match.value(x)}; }};
  Model model = rewritten(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,4] x) => (float[2,4] y) {
      a, b = Split <num_outputs = 2, axis = 1> (x)
      c = Concat <axis = 1> (a, b)
      y = Relu (c)
    })",
                          one(std::move(rule)));
  EXPECT_EQ(opTypes(*model.graph), "Split Concat Relu");
}

// Two rules in the text syntax: a Transpose pair that cancels, and Flatten moved below a Relu
// with its axis carried over by an attribute binding.
constexpr std::string_view kTextRules = R"(
  TransposeTwice (x) => (y) {
    t = Transpose <perm = [1, 0]> (x)
    y = Transpose <perm = [1, 0]> (t)
  }
  TransposeTwiceReplacement (x) => (y) {
    y = Identity (x)
  }
  FlattenThenRelu (float[N, C, K] x) => (y) {
    f = Flatten <axis: int = @axis> (x)
    y = Relu (f)
  }
  FlattenThenReluReplacement (x) => (y) {
    r = Relu (x)
    y = Flatten <axis: int = @axis> (r)
  }
)";

TEST(Pattern, RulesInTheTextSyntax) {
  Result<std::vector<RewriteRule>> rules = parseRewriteRules(kTextRules);
  ASSERT_TRUE(rules) << rules.status().toString();
  ASSERT_EQ(rules->size(), 2u);
  EXPECT_EQ((*rules)[0].name, "TransposeTwice");
  std::string_view text = R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x, float[2,3,4] w) => (float[2,3] y, float[2,12] z) {
      t = Transpose <perm = [1, 0]> (x)
      u = Transpose <perm = [1, 0]> (t)
      y = Neg (u)
      f = Flatten <axis = 1> (w)
      z = Relu (f)
    })";
  Model before = parseOrFail(text);
  Model model = rewritten(text, std::move(*rules));
  const Graph& graph = *model.graph;
  EXPECT_EQ(opTypes(graph), "Identity Neg Relu Flatten");
  const Node* flatten = graph.outputs[1]->bound()->producer();
  EXPECT_EQ(flatten->opType(), "Flatten");
  EXPECT_EQ(flatten->intAttr("axis"), 1);
  EXPECT_EQ(graph.outputs[1]->bound()->name(), "z");
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {2, 3}, {1, -2, 3, -4, 5, -6})},
      {"w",
       tensorOf<float>(ElementType::kFloat, {2, 3, 4},
                       std::vector<float>{1,  -2,  3,  -4,  5,  -6,  7,  -8,  9,  -10, 11, -12,
                                          13, -14, 15, -16, 17, -18, 19, -20, 21, -22, 23, -24})}};
  Result<std::vector<EvalValue>> expected = evaluate(before, inputs);
  Result<std::vector<EvalValue>> actual = evaluate(model, inputs);
  ASSERT_TRUE(expected && actual);
  ASSERT_EQ(expected->size(), actual->size());
  for (size_t i = 0; i < expected->size(); ++i) {
    EXPECT_EQ(compareValues((*expected)[i], (*actual)[i], Tolerance{0, 0}), "") << "output " << i;
  }
}

TEST(Pattern, ATextPatternsInputTypesConstrainTheMatch) {
  // float[N, C, K]: a rank-2 input does not match.
  Result<std::vector<RewriteRule>> rules = parseRewriteRules(kTextRules);
  ASSERT_TRUE(rules);
  Model model = rewritten(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] w) => (float[2,3] z) {
      f = Flatten <axis = 1> (w)
      z = Relu (f)
    })",
                          std::move(*rules));
  EXPECT_EQ(opTypes(*model.graph), "Flatten Relu");
}

TEST(Pattern, ARewriteThatDeclinesLeavesTheModelAsItWas) {
  // The rewrite builds a node, then declines: the builder removes it again.
  Pattern pattern;
  PatternValue x = pattern.var("x").singleUse().elemType(ElementType::kFloat).rank(1);
  pattern.op("LeakyRelu", {x}).bindAttr("alpha", "alpha");
  size_t seen = 0;
  RewriteRule rule{"declines", std::move(pattern), nullptr,
                   [x, &seen](const Match& match, RewriteBuilder& builder) {
                     ++seen;
                     EXPECT_EQ(match.attr("alpha")->f, 0.5f);
                     builder.add("Relu", {match.value(x)});
                     return std::vector<Value*>{};
                   }};
  std::string_view text = R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) {
      y = LeakyRelu <alpha = 0.5> (x)
    })";
  std::string before = testing::bytesOf(parseOrFail(text));
  PassResult changes;
  Model model = rewritten(text, one(std::move(rule)), &changes);
  EXPECT_EQ(seen, 1u);
  EXPECT_FALSE(changes.changed());
  EXPECT_EQ(testing::bytesOf(model), before);
}

TEST(Pattern, ValuePredicatesRefuseWhatTheyDoNotDescribe) {
  // x is read twice, so singleUse() refuses; an int64 input fails elemType(kFloat).
  auto rule = [] {
    Pattern pattern;
    PatternValue x = pattern.var("x").singleUse().elemType(ElementType::kFloat);
    pattern.op("Neg", {x});
    return RewriteRule{"neg-of-single-use", std::move(pattern), nullptr,
                       [x](const Match& match, RewriteBuilder& builder) {
                         // -x as 0 - x.
                         Result<Value*> zero =
                             builder.constant(Array::scalar(ElementType::kFloat, 0.0f), "zero");
                         if (!zero) return std::vector<Value*>{};
                         Node& node = builder.add("Sub", {*zero, match.value(x)});
                         return std::vector<Value*>{node.output(0)};
                       }};
  };
  Model read_twice = rewritten(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y, float[2] z) {
      y = Neg (x)
      z = Relu (x)
    })",
                               one(rule()));
  EXPECT_EQ(opTypes(*read_twice.graph), "Neg Relu");
  Model integers = rewritten(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (int64[2] x) => (int64[2] y) { y = Neg (x) })",
                             one(rule()));
  EXPECT_EQ(opTypes(*integers.graph), "Neg");
  Model rewritten_once = rewritten(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) { y = Neg (x) })",
                                   one(rule()));
  EXPECT_EQ(opTypes(*rewritten_once.graph), "Sub");
  EXPECT_EQ(rewritten_once.graph->outputs[0]->bound()->name(), "y");
  EXPECT_EQ(rewritten_once.graph->initializers.size(), 1u);
}

TEST(Pattern, MalformedRulesAreErrorsThatSayWhy) {
  Result<std::vector<RewriteRule>> odd = parseRewriteRules("A (x) => (y) { y = Relu (x) }");
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.status().message().find("no replacement"), std::string::npos);
  Result<std::vector<RewriteRule>> unknown = parseRewriteRules(R"(
    A (x) => (y) { y = Relu (x) }
    B (x, q) => (y) { y = Add (x, q) })");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.status().message().find("'B'"), std::string::npos);
  Result<std::vector<RewriteRule>> syntax = parseRewriteRules("A (x) => (y) { y = Relu (x ");
  EXPECT_FALSE(syntax);
  // A pattern whose nodes do not all feed the last one.
  Pattern loose;
  PatternValue x = loose.var("x");
  loose.op("Relu", {x});
  loose.op("Neg", {x});
  EXPECT_FALSE(loose.validate().isOk());
}

}  // namespace
}  // namespace onyx
