// The checker on a large graph: 200,000 nodes (each with a name, two inputs, an output and an
// attribute), 1,000 initializers and a value_info entry every 10 nodes check clean. The time
// is printed, not asserted (these machines are shared and noisy); a step quadratic in the node
// count would take minutes and hit ctest's timeout, and bench/check_bench.sh measures it.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "onyx/check/checker.h"
#include "onyx/serde/model_io.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

namespace f = testing::field;
using testing::ProtoBuilder;

std::string largeModel(int nodes) {
  ProtoBuilder graph;
  for (int i = 0; i < nodes; ++i) {
    std::string in = i == 0 ? "x" : "v" + std::to_string(i - 1);
    std::string weight = "w" + std::to_string(i % 1000);
    std::string out = i + 1 == nodes ? "y" : "v" + std::to_string(i);
    std::string name = "/layers." + std::to_string(i / 10) + "/Gemm_" + std::to_string(i % 10);
    graph.message(f::graph::kNode,
                  testing::nodeProto({in, weight}, {out}, name, "Gemm")
                      .message(f::node::kAttribute, testing::floatAttribute("alpha", 1.0f)));
  }
  graph.bytes(f::graph::kName, "large");
  for (int i = 0; i < 1000; ++i) {
    graph.message(f::graph::kInitializer,
                  testing::floatTensor("w" + std::to_string(i), {2}, {1.0f, 2.0f}));
  }
  graph.message(f::graph::kInput, testing::valueInfo("x", testing::data_type::kFloat, {2}));
  graph.message(f::graph::kOutput, testing::valueInfo("y", testing::data_type::kFloat, {2}));
  for (int i = 0; i + 1 < nodes; i += 10) {
    graph.message(f::graph::kValueInfo,
                  testing::valueInfo("v" + std::to_string(i), testing::data_type::kFloat, {2}));
  }
  return testing::modelWithGraph(graph).str();
}

TEST(CheckerScale, TwoHundredThousandNodesCheckInOnePass) {
  std::string bytes = largeModel(200000);
  auto parse_start = std::chrono::steady_clock::now();
  auto model = parseModel(bytes, nullptr);
  std::chrono::duration<double, std::milli> parsed = std::chrono::steady_clock::now() - parse_start;
  ASSERT_TRUE(model) << model.status().toString();
  double best = 1e9;
  Diagnostics diagnostics;
  for (int round = 0; round < 3; ++round) {
    auto start = std::chrono::steady_clock::now();
    diagnostics = checkModel(*model);
    std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  EXPECT_TRUE(diagnostics.all().empty()) << diagnostics.all()[0].toString();
  std::printf("checkModel on 200,000 nodes: %.1f ms (best of 3); parseModel: %.1f ms\n", best,
              parsed.count());
}

TEST(CheckerScale, EveryBrokenNodeOfALargeGraphIsReported) {
  // All problems, not the first: a graph whose every node reads an undefined name.
  ProtoBuilder graph;
  for (int i = 0; i < 20000; ++i) {
    graph.message(f::graph::kNode, testing::nodeProto({"missing" + std::to_string(i)},
                                                      {"v" + std::to_string(i)}, "", "Relu"));
  }
  graph.bytes(f::graph::kName, "broken");
  std::string bytes = testing::modelWithGraph(graph).str();  // outlives the model's views
  auto model = parseModel(bytes, nullptr);
  ASSERT_TRUE(model) << model.status().toString();
  Diagnostics diagnostics = checkModel(*model);
  EXPECT_EQ(diagnostics.errorCount(), 20000u);
  EXPECT_TRUE(diagnostics.has("R30"));
}

}  // namespace
}  // namespace onyx
