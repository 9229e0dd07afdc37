// The layered layout (src/draw/layered_layout.h): what every layout of every group must be,
// checked over the backend models and over models with name scopes, cycles between scopes and
// long edges; and the placement of one rank against its least-squares optimum.
#include "draw/layered_layout.h"

#include <gtest/gtest.h>

#include <cmath>

#include "draw/scene.h"
#include "onyx/serde/model_io.h"
#include "support/check_testing.h"
#include "support/conformance.h"

namespace onyx::draw {
namespace {

constexpr double kSlack = 1e-6;

// Boxes in one rank do not overlap and keep their order; ranks do not overlap; every route
// runs from rank to rank through one bend per rank it crosses, downwards unless reversed;
// everything lies inside the layout's width and height.
void expectSound(const Scene& scene, const SceneLayout& layout, const std::string& where) {
  for (size_t group = 0; group < layout.groups.size(); ++group) {
    const GroupLayout& laid = layout.groups[group];
    if (laid.items.empty()) continue;
    const std::string at =
        where + " group " + std::to_string(group) + " (" + scene.boxes[group].title + ")";
    size_t listed = 0;
    double previous_bottom = -1;
    for (size_t r = 0; r < laid.ranks.size(); ++r) {
      const auto& rank = laid.ranks[r];
      listed += rank.size();
      double top = INFINITY;
      double bottom = -INFINITY;
      for (size_t i = 0; i < rank.size(); ++i) {
        const LayoutItem& item = laid.items[rank[i]];
        ASSERT_EQ(item.rank, r) << at;
        EXPECT_GE(item.x - item.width / 2, -kSlack) << at;
        EXPECT_LE(item.x + item.width / 2, laid.width + kSlack) << at;
        top = std::min(top, item.y);
        bottom = std::max(bottom, item.y + item.height);
        if (i == 0) continue;
        const LayoutItem& left = laid.items[rank[i - 1]];
        EXPECT_LE(left.x + left.width / 2, item.x - item.width / 2 + kSlack)
            << at << " rank " << r << " items " << i - 1 << " and " << i << " overlap";
      }
      EXPECT_GT(top, previous_bottom) << at << " rank " << r;
      previous_bottom = bottom;
      EXPECT_LE(bottom, laid.height + kSlack) << at;
    }
    EXPECT_EQ(listed, laid.items.size()) << at;
    for (const Route& route : laid.routes) {
      // A route drawn from a bend of an earlier one of its value starts below its `from`.
      if (route.start != route.from) {
        EXPECT_FALSE(route.reversed) << at;
        EXPECT_EQ(laid.items[route.start].box, kNoBox) << at;
        EXPECT_FALSE(laid.items[route.start].port) << at;
        EXPECT_GT(laid.items[route.start].rank, laid.items[route.from].rank) << at;
      }
      uint32_t from = laid.items[route.start].rank;
      uint32_t to = laid.items[route.to].rank;
      if (route.reversed) {
        EXPECT_GT(from, to) << at;
      } else {
        EXPECT_LT(from, to) << at;
      }
      ASSERT_EQ(route.bends.size(), (from > to ? from - to : to - from) - 1) << at;
      for (size_t i = 0; i < route.bends.size(); ++i) {
        uint32_t expected = route.reversed ? from - 1 - static_cast<uint32_t>(i)
                                           : from + 1 + static_cast<uint32_t>(i);
        EXPECT_EQ(laid.items[route.bends[i]].rank, expected) << at;
        EXPECT_EQ(laid.items[route.bends[i]].box, kNoBox) << at;
      }
      // Ports lie on their boxes.
      EXPECT_LE(std::abs(route.start_dx), laid.items[route.start].width / 2 + kSlack) << at;
      EXPECT_LE(std::abs(route.end_dx), laid.items[route.to].width / 2 + kSlack) << at;
    }
    // An expanded group is drawn big enough for its layout.
    if (group != 0 && layout.width[group] != layout.closed_width[group]) {
      EXPECT_GE(layout.width[group], laid.width) << at;
      EXPECT_GE(layout.height[group], laid.height) << at;
    }
  }
}

Scene sceneOf(const Model& model) {
  Scene scene;
  Status built = buildScene(model, scene);
  EXPECT_TRUE(built.isOk()) << built.toString();
  return scene;
}

TEST(LayeredLayout, EveryBackendModelLaysOutSoundlyAtEveryDepth) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t groups = 0;
  for (const auto& folder : cases) {
    LoadOptions options;
    options.load_external_data = false;
    auto loaded = loadModel((folder / "model.onnx").string(), options);
    ASSERT_TRUE(loaded) << folder;
    Scene scene = sceneOf(*loaded);
    for (int depth : {1, 99}) {
      std::vector<bool> expanded = expandedGroups(scene, depth, {});
      SceneLayout layout = layoutScene(scene, expanded, true);
      expectSound(scene, layout, folder.filename().string());
      for (const GroupLayout& group : layout.groups) groups += group.items.empty() ? 0 : 1;
    }
  }
  EXPECT_GT(groups, 2 * cases.size());  // subgraphs and function bodies were laid out too
}

// Two scopes that feed each other both ways (a cycle once lifted to the scopes), an input read
// far below, a weight, a Constant node.
constexpr std::string_view kTangled = R"(
<ir_version: 9, opset_import: ["" : 17]>
g (float[N,4] x) => (float[N,4] y)
<float[4] w = {1, 2, 3, 4}>
{
  ["/a/first"] a1 = Relu(x)
  ["/b/first"] b1 = Neg(a1)
  ["/a/second"] a2 = Add(b1, w)
  ["/b/second"] b2 = Abs(a2)
  ["/c/k"] k = Constant<value = float {2}>()
  ["/c/one"] c1 = Mul(b2, k)
  ["/c/two"] c2 = Sigmoid(c1)
  ["/c/three"] c3 = Tanh(c2)
  ["/c/four"] y = Add(c3, x)
}
)";

TEST(LayeredLayout, ScopesThatFeedEachOtherTurnOneEdgeRound) {
  Model model = testing::parseOrFail(kTangled);
  Scene scene = sceneOf(model);
  // Groups a, b, c; the Constant is no box; x, y.
  std::vector<std::string> top;
  for (uint32_t child : scene.boxes[0].children) top.push_back(scene.boxes[child].title);
  EXPECT_EQ(top, (std::vector<std::string>{"input", "a", "b", "c", "output"}));
  std::vector<bool> expanded = expandedGroups(scene, 1, {});
  SceneLayout layout = layoutScene(scene, expanded, false);
  expectSound(scene, layout, "tangled");
  size_t reversed = 0;
  for (const Route& route : layout.groups[0].routes) reversed += route.reversed ? 1 : 0;
  EXPECT_EQ(reversed, 1U);  // b -> a goes against the order a, b
  // x is read by a and by c, three ranks below: the edge bends through the ranks between.
  bool long_edge = false;
  for (const Route& route : layout.groups[0].routes) long_edge |= route.bends.size() >= 2;
  EXPECT_TRUE(long_edge);
  // Expanded, c shows its four nodes; the Constant is a line in Mul's box.
  std::vector<bool> open = expandedGroups(scene, 2, {});
  SceneLayout deep = layoutScene(scene, open, false);
  expectSound(scene, deep, "tangled, open");
  // Inside c, the values made outside (b2 and x) enter at ports in its first rank, and y
  // leaves at a port in its last rank.
  for (size_t i = 0; i < scene.boxes.size(); ++i) {
    if (scene.boxes[i].title != "c") continue;
    const GroupLayout& c = deep.groups[i];
    size_t in_ports = 0;
    size_t out_ports = 0;
    for (const LayoutItem& item : c.items) {
      if (!item.port) continue;
      if (item.rank == 0) ++in_ports;
      if (item.rank + 1 == c.ranks.size()) ++out_ports;
    }
    EXPECT_EQ(in_ports, 2U);
    EXPECT_EQ(out_ports, 1U);
  }
  bool weight_line = false;
  for (const Box& box : scene.boxes) {
    if (box.title == "Mul") weight_line = box.details == std::vector<std::string>{"B: float[]"};
  }
  EXPECT_TRUE(weight_line);
}

TEST(LayeredLayout, AValueReadAllDownAStackBendsOncePerRank) {
  // v is read by the stack's every layer: one trunk of bends, each farther reader's edge
  // leaving it at the rank above its reader. Without the trunk: 1 + 2 + 3 + 4 bends.
  Model model = testing::parseOrFail(R"(
<ir_version: 9, opset_import: ["" : 17]>
g (float[4] x) => (float[4] y)
{
  v = Relu(x)
  a1 = Neg(v)
  a2 = Add(a1, v)
  a3 = Add(a2, v)
  a4 = Add(a3, v)
  y = Add(a4, v)
}
)");
  Scene scene = sceneOf(model);
  SceneLayout layout = layoutScene(scene, expandedGroups(scene, 1, {}), false);
  expectSound(scene, layout, "stack");
  const GroupLayout& root = layout.groups[0];
  size_t bends = 0;
  for (const LayoutItem& item : root.items) bends += item.box == kNoBox ? 1 : 0;
  EXPECT_EQ(bends, 4U);
  size_t from_trunk = 0;
  for (const Route& route : root.routes) from_trunk += route.start != route.from ? 1 : 0;
  EXPECT_EQ(from_trunk, 3U);  // to a3, a4 and y
}

TEST(LayeredLayout, ARankIsPlacedAtItsLeastSquaresOptimum) {
  // Three boxes of width 10 (gap 16 between) that all want x = 0: they pool, and the middle
  // one lands where they wanted to be on average.
  GroupLayout layout;
  for (int i = 0; i < 3; ++i) {
    LayoutItem item;
    item.box = static_cast<uint32_t>(i);
    item.width = 10;
    item.height = 10;
    item.x = 0;
    layout.items.push_back(item);
  }
  layout.ranks = {{0, 1, 2}};
  placeRanks(layout);
  const double step = 10 + Geometry::kItemGap;
  EXPECT_NEAR(layout.items[1].x - layout.items[0].x, step, 1e-9);
  EXPECT_NEAR(layout.items[2].x - layout.items[1].x, step, 1e-9);
  EXPECT_NEAR(layout.width, 2 * step + 10, 1e-9);
  // Items far apart keep the distance they want.
  layout.items[0].x = 0;
  layout.items[1].x = 100;
  layout.items[2].x = 300;
  placeRanks(layout);
  EXPECT_NEAR(layout.items[1].x - layout.items[0].x, 100, 1e-9);
  EXPECT_NEAR(layout.items[2].x - layout.items[1].x, 200, 1e-9);
}

TEST(LayeredLayout, TheDefaultDepthKeepsWithinTheBudget) {
  // 40 scopes of 30 nodes: all of it is 1,240 boxes or so, the scopes alone 42.
  std::string text =
      "<ir_version: 9, opset_import: [\"\" : 17]>\ng (float[4] x) => (float[4] y)\n{\n";
  std::string previous = "x";
  for (int scope = 0; scope < 40; ++scope) {
    for (int node = 0; node < 30; ++node) {
      std::string out = "v" + std::to_string(scope) + "_" + std::to_string(node);
      text += "  [\"/s" + std::to_string(scope) + "/n" + std::to_string(node) + "\"] " + out +
              " = Relu(" + previous + ")\n";
      previous = out;
    }
  }
  text += "  y = Identity(" + previous + ")\n}\n";
  Model model = testing::parseOrFail(text);
  Scene scene = sceneOf(model);
  EXPECT_EQ(depthWithin(scene, 400), 1);
  EXPECT_EQ(depthWithin(scene, 5000), 2);
  std::vector<bool> expanded = expandedGroups(scene, 1, {});
  size_t open = 0;
  for (size_t i = 1; i < expanded.size(); ++i) open += expanded[i] ? 1 : 0;
  EXPECT_EQ(open, 0U);
  expanded = expandedGroups(scene, 2, {"s1"});  // s1, s10..s19 stay collapsed
  open = 0;
  for (size_t i = 1; i < expanded.size(); ++i) open += expanded[i] ? 1 : 0;
  EXPECT_EQ(open, 40U - 11U);
}

TEST(LayeredLayout, AGraphWithoutScopesIsDrawnInBlocks) {
  // 2,500 nodes and no name scopes: blocks of 256 consecutive ones (the last 196), the
  // input and output where they were, and the default depth shows the blocks.
  std::string text =
      "<ir_version: 9, opset_import: [\"\" : 17]>\ng (float[4] x) => (float[4] y)\n{\n";
  std::string previous = "x";
  for (int node = 0; node < 2499; ++node) {
    std::string out = "v" + std::to_string(node);
    text += "  " + out + " = Relu(" + previous + ")\n";
    previous = out;
  }
  text += "  y = Identity(" + previous + ")\n}\n";
  Model model = testing::parseOrFail(text);
  Scene scene = sceneOf(model);
  const auto& top = scene.boxes[0].children;
  ASSERT_EQ(top.size(), 12U);
  EXPECT_EQ(scene.boxes[top.front()].kind, BoxKind::kInput);
  EXPECT_EQ(scene.boxes[top.back()].kind, BoxKind::kOutput);
  EXPECT_EQ(scene.boxes[top[1]].title, "block 1");
  EXPECT_EQ(scene.boxes[top[1]].node_count, 256U);
  EXPECT_EQ(scene.boxes[top[10]].node_count, 2500U - 9 * 256);
  // Parents come before children in the numbering the layout relies on.
  for (size_t i = 1; i < scene.boxes.size(); ++i) EXPECT_LT(scene.boxes[i].parent, i);
  EXPECT_EQ(depthWithin(scene, 400), 1);
  SceneLayout layout = layoutScene(scene, expandedGroups(scene, 2, {}), false);
  expectSound(scene, layout, "blocks");
}

}  // namespace
}  // namespace onyx::draw
