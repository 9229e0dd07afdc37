// onyx/draw/draw.h — pictures of a model: SVG, Graphviz DOT, and a self-contained HTML page.
//
// A picture shows each node as a box (operator type and name), each value that flows between
// nodes as an edge labelled with the type inference finds for it (`float[N,S,768]`), the
// graph's inputs and outputs as marked boxes, and initializers and Constant nodes as lines
// inside the boxes that read them (`W: float[64,3,7,7]`), not as boxes of their own.
//
// Nodes are grouped, and groups nest:
//   - by the name scopes exporters write (`/encoder/layer.3/attn/MatMul` is in
//     `encoder` > `layer.3` > `attn`);
//   - a node that calls a model-local function holds the function's body;
//   - a node with graph attributes (If, Loop, Scan) holds its graphs, one box each.
// A group at DrawOptions::depth is drawn collapsed, as one box. The HTML page
// holds every group's layout and expands or collapses a group on a click.
//
// Every group is laid out on its own, in layers (src/draw/layered_layout.h says how), so the
// cost grows with the model, not with its square, and a collapsed group costs one box in its
// parent's layout.
//
// Names come from the model and are untrusted: every writer escapes them for its format, and
// shows control characters as escapes (`\n`), so a name reads as it is.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

enum class DrawFormat {
  kSvg,   // a static picture at the chosen depth
  kDot,   // Graphviz's language: groups as clusters, for `dot -Tsvg` and the like
  kHtml,  // one file with no network access: pan, zoom, search, expand and collapse
};

/// "svg", "dot" or "html".
std::string_view drawFormatName(DrawFormat format);
/// The format drawFormatName names so; nullopt for any other name.
std::optional<DrawFormat> drawFormatNamed(std::string_view name);
/// The format a picture's file name says: .svg, .dot or .gv (Graphviz), .html or .htm (any
/// case); nullopt for any other ending.
std::optional<DrawFormat> drawFormatOfPath(std::string_view path);

struct DrawOptions {
  DrawFormat format = DrawFormat::kSvg;
  /// How many levels of boxes show: at 1 the main graph's own boxes, its groups collapsed; at
  /// 2 those groups open, the groups inside them collapsed; and so on. nullopt: the deepest
  /// depth at which at most `box_budget` boxes show.
  std::optional<int> depth;
  /// How many boxes a picture shows at most when `depth` is not given.
  size_t box_budget = 400;
  /// Name scopes drawn collapsed whatever the depth: a group whose path (`encoder/layer.3`)
  /// starts with one of these.
  std::vector<std::string> collapse;
  /// Titles the picture (the HTML page's title and the SVG's heading); the model's graph
  /// name when empty.
  std::string title;
  /// A measure per node of the model drawn (its main graph's or a nested graph's): each node's
  /// box is filled from white to red by its share of the largest, and shows the measure with
  /// `heat_unit` on a line of its own; a collapsed group, by the sum of its nodes' against the
  /// largest group's. What `onyx draw --cost` (FLOPs) and `--profile` (milliseconds) colour by.
  std::unordered_map<const Node*, double> heat;
  std::string heat_unit;
};

/// The picture of `model` in `options.format`, appended to `out`. The model is not changed:
/// the edges' types come from an inference that records nothing in it. Refuses a model whose
/// graphs or function calls nest beyond the limits the checker enforces.
Status drawModel(const Model& model, const DrawOptions& options, std::string& out);

/// The picture of two models aligned by value names: a node of `after` is matched to the node
/// of `before` that produces the same value (its first named output). Nodes only in `after`
/// are marked added, nodes only in `before` removed (drawn where they were), and matched nodes
/// whose operator, attributes or inputs differ changed.
Status drawDiff(const Model& before, const Model& after, const DrawOptions& options,
                std::string& out);

}  // namespace onyx

#pragma GCC visibility pop
