// A scene in Graphviz's language: expanded groups as clusters, every other box as a node,
// each edge between the boxes that show its ends, labelled with its value's type.
#include <fmt/format.h>

#include <set>
#include <tuple>

#include "draw/display_text.h"
#include "draw/markup.h"
#include "draw/writers.h"

namespace onyx::draw {

namespace {

const char* fillOf(const Box& box) {
  switch (box.change) {
    case Change::kAdded: return "#d7f5dd";
    case Change::kRemoved: return "#fce8e6";
    case Change::kChanged: return "#fef0c7";
    case Change::kSame: break;
  }
  switch (box.kind) {
    case BoxKind::kInput: return "#e6f4ea";
    case BoxKind::kOutput: return "#fef7e0";
    case BoxKind::kScope:
    case BoxKind::kGraph: return "#eceff1";
    default: return "#e8f0fe";
  }
}

class DotWriter {
 public:
  DotWriter(const Scene& scene, const std::vector<bool>& expanded, std::string& out)
      : scene_(scene), expanded_(expanded), out_(out) {}

  void write() {
    out_ += "digraph onyx {\n";
    out_ += "  graph [rankdir=TB, fontname=\"monospace\", label=\"";
    appendDotString(out_, displayText(scene_.title, 80));
    out_ += "\", labelloc=t];\n";
    out_ +=
        "  node [shape=box, style=\"rounded,filled\", fontname=\"monospace\", "
        "fontsize=11];\n";
    out_ += "  edge [fontname=\"monospace\", fontsize=9, color=\"#5f6368\"];\n";
    if (!scene_.boxes.empty()) writeContent(0, 1);
    writeEdges();
    out_ += "}\n";
  }

 private:
  void indent(int level) { out_.append(static_cast<size_t>(level) * 2, ' '); }

  void writeContent(uint32_t group, int level) {
    for (uint32_t child : scene_.boxes[group].children) {
      const Box& box = scene_.boxes[child];
      if (box.isGroup() && expanded_[child]) {
        indent(level);
        out_ += fmt::format("subgraph cluster_{} {{\n", child);
        indent(level + 1);
        out_ += "label=\"";
        appendDotString(out_, displayText(box.title, Geometry::kMaxLabelChars));
        out_ += "\"; style=\"rounded,dashed\"; color=\"#9aa0a6\";\n";
        // A node that holds graphs or a body is also a box in its cluster: its own edges
        // end there.
        if (box.isNode()) {
          writeNode(child, level + 1);
        }
        writeContent(child, level + 1);
        indent(level);
        out_ += "}\n";
      } else {
        writeNode(child, level);
      }
    }
  }

  void writeNode(uint32_t index, int level) {
    const Box& box = scene_.boxes[index];
    BoxText text = boxText(scene_, index);
    indent(level);
    out_ += fmt::format("b{} [label=\"", index);
    appendDotString(out_, text.title);
    for (const std::string& line : text.lines) {
      out_ += "\\n";
      appendDotString(out_, line);
    }
    std::string heat = heatFill(box);
    out_ += fmt::format("\", fillcolor=\"{}\"", heat.empty() ? std::string(fillOf(box)) : heat);
    if (box.kind == BoxKind::kInput || box.kind == BoxKind::kOutput) out_ += ", shape=oval";
    if (box.isGroup() && !expanded_[index]) out_ += ", peripheries=2";
    if (box.change == Change::kRemoved) out_ += ", style=\"rounded,filled,dashed\"";
    out_ += "];\n";
  }

  // The box that shows `box`: itself, or the outermost collapsed group around it.
  uint32_t shownBox(uint32_t box) const {
    uint32_t shown = box;
    for (uint32_t at = scene_.boxes[box].parent; at != kNoBox; at = scene_.boxes[at].parent) {
      if (!expanded_[at]) shown = at;
    }
    return shown;
  }

  void writeEdges() {
    std::set<std::tuple<uint32_t, uint32_t>> drawn;
    for (const Edge& edge : scene_.edges) {
      uint32_t from = shownBox(edge.from);
      uint32_t to = shownBox(edge.to);
      if (from == to || !drawn.insert({from, to}).second) continue;
      out_ += fmt::format("  b{} -> b{}", from, to);
      const SceneValue& value = scene_.values[edge.value];
      if (!value.type.empty()) {
        out_ += " [label=\"";
        appendDotString(out_, displayText(value.type, Geometry::kMaxLabelChars));
        out_ += "\"]";
      }
      out_ += ";\n";
    }
  }

  const Scene& scene_;
  const std::vector<bool>& expanded_;
  std::string& out_;
};

}  // namespace

void writeDot(const Scene& scene, const std::vector<bool>& expanded, std::string& out) {
  DotWriter(scene, expanded, out).write();
}

}  // namespace onyx::draw
