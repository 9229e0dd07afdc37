// What a picture shows, before any geometry: a tree of boxes (nodes, graph inputs and
// outputs, and the groups that hold them) and the edges between boxes, each carrying one value.
//
// Box 0 is the main graph. A group's children are listed in the order their first node has in
// its graph, which is a topological order for the nodes of one graph; layered_layout.cc reads
// it to tell a back edge from a forward one.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

namespace onyx::draw {

inline constexpr uint32_t kNoBox = UINT32_MAX;

enum class BoxKind : uint8_t {
  kNode,         // a node without graphs or a function body
  kInput,        // a graph's (or function's) input
  kOutput,       // a graph's (or function's) output
  kGraph,        // the main graph, or one graph attribute of a node
  kScope,        // a name scope (`encoder/layer.3`)
  kCall,         // a node calling a model-local function: holds the body
  kControlFlow,  // a node with graph attributes: holds one kGraph per graph
};

/// How a box compares with the other model of a diff (drawDiff); kSame outside a diff.
enum class Change : uint8_t { kSame, kAdded, kRemoved, kChanged };

struct Box {
  BoxKind kind = BoxKind::kNode;
  Change change = Change::kSame;
  uint32_t parent = kNoBox;
  uint32_t depth = 0;  // the main graph is 0, its own groups 1
  /// Nodes inside, at any depth (a node box counts itself).
  uint32_t node_count = 0;
  std::vector<uint32_t> children;
  /// Op type (`Conv`, `com.microsoft.Attention`), scope name, graph attribute name, or
  /// `input` / `output`.
  std::string title;
  /// The node's or value's name, a scope's full path; may be empty.
  std::string name;
  /// Lines shown inside the box: the weights a node reads (`W: float[64,3,7,7]`), an
  /// input's or output's type.
  std::vector<std::string> details;
  /// The node's attributes, as the text syntax writes them (for the HTML page's panel).
  std::vector<std::string> attributes;
  /// The node's or graph's doc_string; empty when it has none.
  std::string doc;
  /// What identifies the box across two versions of a model (scene_diff.h): a node by its
  /// first named output (else its name), an input or output by its value, a scope by its path,
  /// each within the key of the graph that holds it. Empty for a box that has none.
  std::string key;
  /// What a node computes from what: operator, attributes, input names. Two boxes with one
  /// key and different signatures changed.
  std::string signature;
  /// The node a node box draws (null for other boxes).
  const Node* node = nullptr;
  /// Its share of the largest measure DrawOptions::heat gives (of a node box against the
  /// nodes', of a group against the groups'), in [0, 1]; negative when it has none.
  double heat = -1;

  bool isGroup() const { return !children.empty(); }
  /// A node of the model (with or without what it holds), not an input, output or group.
  bool isNode() const {
    return kind == BoxKind::kNode || kind == BoxKind::kCall || kind == BoxKind::kControlFlow;
  }
};

struct Edge {
  uint32_t from = kNoBox;  // the box that produces the value (or the input box)
  uint32_t to = kNoBox;    // the box that reads it
  uint32_t value = 0;      // index into Scene::values
};

/// A value drawn on an edge: its name and its type in the text syntax's spelling.
struct SceneValue {
  std::string name;
  std::string type;  // empty when inference does not know it
};

struct Scene {
  std::vector<Box> boxes;
  std::vector<Edge> edges;
  std::vector<SceneValue> values;
  std::string title;
};

/// Each box's depth and node count, from the tree (after the tree changed).
void countNodesAndDepths(Scene& scene);

/// Gives the boxes of the nodes `heat` measures their shares (Box::heat) and a line with the
/// measure and `unit`, and each group the share of the sum of its nodes'.
void applyHeat(Scene& scene, const std::unordered_map<const Node*, double>& heat,
               std::string_view unit);

/// The fill a box's heat gives it (`#rrggbb`, white to red); empty for a box without one.
std::string heatFill(const Box& box);

/// The scene of `model`, its values carrying the types inference finds (run here, recording
/// nothing in the model). Fails only on graphs or function calls nested beyond the limits.
Status buildScene(const Model& model, Scene& scene);

}  // namespace onyx::draw
