// DrawOptions::heat: boxes filled white to red by their share of the largest measure, the
// measure shown in the box, in every format; groups by the sum of their nodes'.
#include <gtest/gtest.h>

#include <string>

#include "draw/scene.h"
#include "onyx/draw/draw.h"
#include "onyx/text/parser.h"

namespace onyx {
namespace {

Model chain() {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) {
      ["/block/a"] a = Relu (x)
      ["/block/b"] b = Neg (a)
      ["c"] y = Abs (b)
    })");
  EXPECT_TRUE(model) << model.status().toString();
  return std::move(*model);
}

std::string picture(const Model& model, DrawFormat format, int depth = 2) {
  DrawOptions options;
  options.format = format;
  options.depth = depth;
  const Node* nodes[3];
  size_t i = 0;
  for (const Node* node : model.graph->nodes()) nodes[i++] = node;
  options.heat = {{nodes[0], 4e9}, {nodes[1], 1e9}, {nodes[2], 0}};
  options.heat_unit = "FLOPs";
  std::string out;
  EXPECT_TRUE(drawModel(model, options, out).isOk());
  return out;
}

TEST(DrawHeat, TheLargestIsRedTheSmallestWhiteAndEachShowsItsMeasure) {
  Model model = chain();
  std::string svg = picture(model, DrawFormat::kSvg);
  EXPECT_NE(svg.find(R"(style="fill:#f28b82")"), std::string::npos) << svg;  // 4 GFLOPs
  EXPECT_NE(svg.find(R"(style="fill:#fce2e0")"), std::string::npos) << svg;  // a quarter
  EXPECT_NE(svg.find(R"(style="fill:#ffffff")"), std::string::npos) << svg;  // 0
  EXPECT_NE(svg.find(">4 GFLOPs<"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">1 GFLOPs<"), std::string::npos) << svg;
  std::string dot = picture(model, DrawFormat::kDot);
  EXPECT_NE(dot.find(R"(fillcolor="#f28b82")"), std::string::npos) << dot;
  std::string html = picture(model, DrawFormat::kHtml);
  EXPECT_NE(html.find("\"#f28b82\""), std::string::npos);
}

TEST(DrawHeat, ACollapsedGroupShowsTheSumOfItsNodes) {
  Model model = chain();
  draw::Scene scene;
  ASSERT_TRUE(draw::buildScene(model, scene).isOk());
  std::unordered_map<const Node*, double> heat;
  for (const Node* node : model.graph->nodes()) heat[node] = 1;
  draw::applyHeat(scene, heat, "ms");
  size_t groups = 0;
  for (const draw::Box& box : scene.boxes) {
    if (box.kind == draw::BoxKind::kScope) {
      ++groups;
      EXPECT_EQ(box.heat, 1.0);  // the only group: the largest
    }
    if (box.isNode()) {
      EXPECT_EQ(box.heat, 1.0);
      ASSERT_FALSE(box.details.empty());
      EXPECT_EQ(box.details.front(), "1 ms");
    }
  }
  EXPECT_EQ(groups, 1u);
  // Without a measure nothing changes colour.
  draw::Box plain;
  EXPECT_EQ(draw::heatFill(plain), "");
}

}  // namespace
}  // namespace onyx
