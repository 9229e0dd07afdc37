// The scene of a model (src/draw/scene.h): what untrusted nesting does to it.
#include "draw/scene.h"

#include <gtest/gtest.h>

#include <algorithm>

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

}  // namespace
}  // namespace onyx::draw
