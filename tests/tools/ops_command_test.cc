// `onyx ops`: the listing people read and the JSON scripts parse, and its usage errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "support/tool_testing.h"

namespace onyx {
namespace {

using testing::ToolRun;

ToolRun onyxOps(const std::string& arguments) {
  return testing::runOnyx("ops " + arguments, testing::Stderr::kMerged);
}

TEST(OpsCommand, ListsTheVersionInForceAtAnOpset) {
  ToolRun run = onyxOps("Conv Resize --opset 12");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("# ai.onnx at opset 12: 2 operators"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Conv-11\n  inputs (2 to 3): X: T, W: T, B?: T\n  outputs (1): Y: T\n"
                         "  attribute auto_pad: string = \"NOTSET\"\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  T in tensor(float, float16, double)\n"), std::string::npos);
  EXPECT_NE(run.out.find("Resize-11\n  inputs (3 to 4): X: T1, roi: T2, scales: tensor(float), "
                         "sizes?: tensor(int64)\n"),
            std::string::npos)
      << run.out;
  // A literal type is not listed as a constraint of its own.
  EXPECT_EQ(run.out.find("tensor(float) in"), std::string::npos);
}

TEST(OpsCommand, ShowsVariadicsRequiredAttributesAndDeprecation) {
  ToolRun loop = onyxOps("Loop");
  ASSERT_EQ(loop.status, 0) << loop.out;
  EXPECT_NE(loop.out.find("Loop-25\n  inputs (2 or more): M?: I, cond?: B, v_initial...: V (0 or "
                          "more, heterogeneous)\n"),
            std::string::npos)
      << loop.out;
  EXPECT_NE(loop.out.find("  attribute body: graph (required)\n"), std::string::npos);
  ToolRun upsample = onyxOps("Upsample --opset 10");
  ASSERT_EQ(upsample.status, 0) << upsample.out;
  EXPECT_NE(upsample.out.find("Upsample-10 (deprecated)\n"), std::string::npos) << upsample.out;
}

TEST(OpsCommand, ShowsEachVersionsTraits) {
  ToolRun add = onyxOps("Add --opset 14");
  ASSERT_EQ(add.status, 0) << add.out;
  EXPECT_NE(add.out.find("Add-14\n  traits: commutative, elementwise\n"), std::string::npos)
      << add.out;
  ToolRun legacy = onyxOps("Add --opset 6");
  ASSERT_EQ(legacy.status, 0) << legacy.out;
  EXPECT_EQ(legacy.out.find("traits:"), std::string::npos) << legacy.out;  // `broadcast`
  ToolRun json = onyxOps("Reshape Dropout --opset 18 --json");
  ASSERT_EQ(json.status, 0) << json.out;
  nlohmann::json parsed = nlohmann::json::parse(json.out);
  const nlohmann::json& operators = parsed["operator_sets"][0]["operators"];
  ASSERT_EQ(operators.size(), 2u) << json.out;
  for (const nlohmann::json& op : operators) {
    const nlohmann::json& traits = op["versions"][0]["traits"];
    nlohmann::json expected =
        nlohmann::json::array({op["name"] == "Reshape" ? "shape-only" : "nondeterministic"});
    EXPECT_EQ(traits, expected) << op;
  }
}

TEST(OpsCommand, EveryDomainByDefault) {
  ToolRun run = onyxOps("");
  ASSERT_EQ(run.status, 0);
  for (const char* heading :
       {"# ai.onnx at opset 28: 203 operators", "# ai.onnx.ml at opset 5: 19 operators",
        "# ai.onnx.training at opset 1: 0 operators", "# ai.onnx.preview at opset 1: 1 operators",
        "# ai.onnx.preview.training at opset 1: 4 operators"}) {
    EXPECT_NE(run.out.find(heading), std::string::npos) << heading;
  }
}

TEST(OpsCommand, Json) {
  ToolRun run = onyxOps("--domain ai.onnx.ml --opset 2 --json");
  ASSERT_EQ(run.status, 0) << run.out;
  auto json = nlohmann::json::parse(run.out);
  ASSERT_EQ(json["operator_sets"].size(), 1u);
  const auto& set = json["operator_sets"][0];
  EXPECT_EQ(set["domain"], "ai.onnx.ml");
  EXPECT_EQ(set["opset"], 2);
  const nlohmann::json* encoder = nullptr;
  for (const auto& op : set["operators"]) {
    EXPECT_NE(op["name"], "TreeEnsemble");  // from 5 on
    if (op["name"] == "LabelEncoder") encoder = &op;
  }
  ASSERT_NE(encoder, nullptr);
  ASSERT_EQ((*encoder)["versions"].size(), 1u);
  const auto& version = (*encoder)["versions"][0];
  EXPECT_EQ(version["since_version"], 2);
  EXPECT_EQ(version["min_inputs"], 1);
  EXPECT_EQ(version["max_outputs"], 1);
  EXPECT_EQ(version["inputs"][0]["name"], "X");
  EXPECT_EQ(version["inputs"][0]["option"], "single");
  bool default_int64 = false;
  for (const auto& attribute : version["attributes"]) {
    if (attribute["name"] != "default_int64") continue;
    default_int64 = true;
    EXPECT_EQ(attribute["kind"], "int");
    EXPECT_EQ(attribute["required"], false);
    EXPECT_EQ(attribute["default"], -1);
  }
  EXPECT_TRUE(default_int64);
  EXPECT_EQ(version["constraints"][0]["name"], "T1");
  EXPECT_EQ(version["constraints"][0]["types"][0], "tensor(float)");

  ToolRun all = onyxOps("Concat --all-versions --json");
  ASSERT_EQ(all.status, 0) << all.out;
  auto concat = nlohmann::json::parse(all.out)["operator_sets"][0]["operators"][0];
  EXPECT_EQ(concat["versions"].size(), 4u);
  EXPECT_TRUE(concat["versions"][3]["max_inputs"].is_null());  // unbounded
  EXPECT_EQ(concat["versions"][3]["inputs"][0]["option"], "variadic");
  EXPECT_EQ(concat["versions"][3]["inputs"][0]["min_count"], 1);
}

TEST(OpsCommand, SaysWhichVersionsHaveAFunctionBody) {
  ToolRun run = onyxOps("Softsign Softmax Relu --opset 17");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("Softmax-13\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  function body: built for each node, from opset 13\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  function body: fixed, from opset 18\n"), std::string::npos) << run.out;
  // Relu 14 has a body from opset 18 only; Relu 6 has none.
  ToolRun relu6 = onyxOps("Relu --opset 6");
  EXPECT_EQ(relu6.out.find("function body"), std::string::npos) << relu6.out;

  ToolRun text = onyxOps("Softsign --opset 18 --function-body");
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("    Softsign (input) => (output) {\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("      output = Div (input, denominator)\n"), std::string::npos);

  ToolRun json = onyxOps("MeanVarianceNormalization --all-versions --function-body --json");
  ASSERT_EQ(json.status, 0) << json.out;
  auto versions = nlohmann::json::parse(json.out)["operator_sets"][0]["operators"][0]["versions"];
  ASSERT_EQ(versions.size(), 2u);
  EXPECT_EQ(versions[1]["function_body"]["kind"], "fixed");
  EXPECT_EQ(versions[1]["function_body"]["opsets"], nlohmann::json({13, 18}));
  ASSERT_EQ(versions[1]["function_body"]["texts"].size(), 2u);
  EXPECT_NE(versions[1]["function_body"]["texts"][1]["text"].get<std::string>().find(
                "ReduceMean (X, axes)"),
            std::string::npos);
  ToolRun none = onyxOps("Conv --json");
  EXPECT_TRUE(nlohmann::json::parse(
                  none.out)["operator_sets"][0]["operators"][0]["versions"][0]["function_body"]
                  .is_null());
}

TEST(OpsCommand, UsageErrorsExitTwo) {
  ToolRun domain = onyxOps("--domain com.microsoft");
  EXPECT_EQ(domain.status, 2);
  EXPECT_NE(domain.out.find("com.microsoft is not a standard domain"), std::string::npos);
  ToolRun opset = onyxOps("--opset 29");
  EXPECT_EQ(opset.status, 2);
  EXPECT_NE(opset.out.find("ai.onnx has versions 1 to 28, not 29"), std::string::npos) << opset.out;
  ToolRun unknown = onyxOps("NoSuchOp");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.out.find("no operator named NoSuchOp"), std::string::npos) << unknown.out;
}

}  // namespace
}  // namespace onyx
