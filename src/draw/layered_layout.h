// A layered layout of a scene (scene.h), one group at a time.
//
// Each group's children are laid out on their own, in the manner of Sugiyama, Tagawa and Toda:
//   1. ranks: the children in graph order make the edges between them go forward, but for
//      edges between name scopes that feed each other both ways, which are turned round;
//      each child is ranked one below the lowest of its predecessors (longest path), then
//      moved down as far as its first reader allows (graph inputs stay at the top);
//   2. bends: an edge that spans several ranks gets a bend point (an item without a box) in
//      each rank it crosses; an edge into or out of the group goes from or to a port, an
//      item in the first or last rank that stands for the frame;
//   3. order: a few sweeps down and up sort each rank by the mean position of its neighbours
//      in the rank before (the barycentre heuristic);
//   4. place (placeRanks): each item wants the x of the mean of its neighbours; each rank is
//      placed as close to what its items want as their widths allow, which is an isotonic
//      regression solved exactly by pooling adjacent violators, in linear time.
// Step 4 is the only one the HTML page repeats: when a group is expanded or collapsed, its
// size changes, and the page places the ranks of its ancestors again from the x they had
// (html_page.js, `placeRanks`, follows this file's arithmetic).
//
// A collapsed group is one box in its parent's layout; an expanded one is a box the size of its
// own layout. Cost: O(items + edge bends) per sweep, with a sort per rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "draw/scene.h"

namespace onyx::draw {

struct Geometry {
  // Text metrics the writers and the page share: a monospace font (every glyph as wide), so
  // a box's width follows from its text alone.
  static constexpr double kCharWidth = 7.2;     // 12 px monospace
  static constexpr double kLineHeight = 15;     // one line of text
  static constexpr double kPadding = 8;         // around the text of a box
  static constexpr double kGroupPadding = 12;   // around the content of an expanded group
  static constexpr double kGroupHeader = 22;    // an expanded group's title line
  static constexpr double kItemGap = 16;        // between neighbours in a rank
  static constexpr double kBendWidth = 4;       // an edge's bend point
  static constexpr double kRankGap = 36;        // between ranks, room for edge labels
  static constexpr size_t kMaxLabelChars = 40;  // longer names are cut in the box
  static constexpr double kMargin = 16;         // around the whole picture
  static constexpr double kHeading = 24;        // the picture's title line
};

struct LayoutItem {
  uint32_t box = kNoBox;  // kNoBox: a bend of an edge, or a port
  /// Where a value crosses the group's frame: an input port (first rank) for a value read
  /// inside and made outside, an output port (last rank) for one made inside and read
  /// outside. The edge outside ends at the frame; inside, it runs from or to the port.
  bool port = false;
  uint32_t rank = 0;
  double x = 0;  // centre
  double y = 0;  // top
  double width = 0;
  double height = 0;

  bool isBend() const { return box == kNoBox && !port; }
};

struct Route {
  uint32_t from = 0;  // items
  uint32_t to = 0;
  /// Where the route is drawn from: `from`, or for the second and later edges of one value
  /// going down from one item, the bend of an earlier one where it leaves their shared trunk
  /// (a value read by every layer of a stack bends once per rank, not once per reader).
  uint32_t start = 0;
  std::vector<uint32_t> bends;  // bend items from `start`'s rank to `to`'s
  uint32_t value = 0;           // Scene::values
  uint32_t count = 1;           // values drawn as this one edge
  bool reversed = false;        // drawn against the ranks: `from` is below `to`
  // Where the edge leaves `from` and enters `to`, from their centres' x (placeRanks): the
  // edges at one side of a box spread along it, in the order of where they go.
  double start_dx = 0;
  double end_dx = 0;
};

/// The layout of one group's children, in the group's own coordinates (content from 0,0).
struct GroupLayout {
  std::vector<LayoutItem> items;
  std::vector<std::vector<uint32_t>> ranks;  // items, left to right
  std::vector<Route> routes;
  double width = 0;
  double height = 0;
};

/// A box's text: its title line, and the lines below it (its name, its details).
struct BoxText {
  std::string title;
  std::vector<std::string> lines;
};

/// What `box` shows as a leaf or a collapsed group: names cut to Geometry::kMaxLabelChars,
/// the node's name without the scopes its group already shows.
BoxText boxText(const Scene& scene, uint32_t box);

/// An expanded group's title line: its title, and for a node that holds graphs or a body
/// its name too.
std::string groupTitle(const Scene& scene, uint32_t box);

/// Which groups are drawn expanded: those less than `depth` deep (so that the boxes at depths
/// 1 to `depth` show), but none whose scope path starts with one of `collapse`; the main graph
/// always.
std::vector<bool> expandedGroups(const Scene& scene, int depth,
                                 const std::vector<std::string>& collapse);
/// The deepest depth at which at most `budget` boxes show (at least 1).
int depthWithin(const Scene& scene, size_t budget);

struct SceneLayout {
  std::vector<GroupLayout> groups;  // by box; empty for a leaf or a group not laid out
  std::vector<double> width;        // of each box as drawn
  std::vector<double> height;
  std::vector<double> closed_width;  // of each box as a leaf or a collapsed group
  std::vector<double> closed_height;
};

/// Lays out every expanded group, and with `all_groups` the collapsed ones too (the HTML page
/// expands them without asking the library). A box's size is its text's when it is a leaf
/// or collapsed, its layout's when expanded.
SceneLayout layoutScene(const Scene& scene, const std::vector<bool>& expanded, bool all_groups);

/// Step 4 above: x of every item of `layout` from the x it wants (its current x), y of every
/// rank from the heights, the routes' ends along their boxes; then the layout's width and
/// height.
void placeRanks(GroupLayout& layout);

}  // namespace onyx::draw
