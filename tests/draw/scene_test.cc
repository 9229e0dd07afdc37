// The scene of a model (src/draw/scene.h): what untrusted nesting does to it.
#include "draw/scene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "draw/scene_diff.h"
#include "onyx/draw/draw.h"
#include "support/check_testing.h"

namespace onyx::draw {
namespace {

// A main graph calling f0, each fi calling f(i+1), the last one a Relu.
std::string callChain(int functions) {
  std::string text =
      "<ir_version: 9, opset_import: [\"\" : 17, \"local\" : 1]>\n"
      "g (float[4] x) => (float[4] y)\n{\n  y = local.f0(x)\n}\n";
  for (int i = 0; i < functions; ++i) {
    std::string call = i + 1 < functions ? "local.f" + std::to_string(i + 1) : "Relu";
    text += "<domain: \"local\", opset_import: [\"\" : 17, \"local\" : 1]>\nf" + std::to_string(i) +
            " (a) => (b)\n{\n  b = " + call + "(a)\n}\n";
  }
  return text;
}

// Each body is drawn inside its call: a chain of calls deeper than a picture nests is refused
// with a status, not a crash (the builder recurses once per level).
TEST(Scene, FunctionCallsNestedBeyondTheLimitAreRefused) {
  Model deep = testing::parseOrFail(callChain(300));
  Scene scene;
  EXPECT_EQ(buildScene(deep, scene).code(), ErrorCode::kLimitExceeded);
  std::string picture;
  EXPECT_EQ(drawModel(deep, DrawOptions(), picture).code(), ErrorCode::kLimitExceeded);

  Model shallow = testing::parseOrFail(callChain(40));
  ASSERT_TRUE(buildScene(shallow, scene).isOk());
  uint32_t deepest = 0;
  for (const Box& box : scene.boxes) deepest = std::max(deepest, box.depth);
  EXPECT_GE(deepest, 40U);
}

size_t marked(const Scene& scene, Change change) {
  return static_cast<size_t>(std::count_if(scene.boxes.begin(), scene.boxes.end(),
                                           [&](const Box& box) { return box.change == change; }));
}

// Nodes without a named output (the spec allows them; fuzzing found one with neither outputs nor
// operator): a diff of the model with itself marks nothing, and one known by its name is
// matched by it, so dropping it marks it removed.
TEST(SceneDiff, NodesWithoutNamedOutputsAreMatchedByNameOrLeftUnmarked) {
  const char* with_both = R"(<ir_version: 9, opset_import: ["" : 17]>
g (float[4] x) => (float[4] y) {
  y = Relu(x)
  = Identity(x)
  [keep_alive] = Identity(y)
}
)";
  const char* without_named = R"(<ir_version: 9, opset_import: ["" : 17]>
g (float[4] x) => (float[4] y) {
  y = Relu(x)
  = Identity(x)
}
)";
  Model model = testing::parseOrFail(with_both);
  Scene same;
  ASSERT_TRUE(buildDiffScene(model, model, same).isOk());
  EXPECT_EQ(marked(same, Change::kAdded) + marked(same, Change::kRemoved) +
                marked(same, Change::kChanged),
            0U);

  Model smaller = testing::parseOrFail(without_named);
  Scene dropped;
  ASSERT_TRUE(buildDiffScene(model, smaller, dropped).isOk());
  EXPECT_EQ(marked(dropped, Change::kRemoved), 1U);
  EXPECT_EQ(marked(dropped, Change::kAdded), 0U);
}

}  // namespace
}  // namespace onyx::draw
