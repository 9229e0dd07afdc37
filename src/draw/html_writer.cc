// A scene as one HTML file: the page, the scene and every group's layout as JSON, and the
// viewer (html_page.js). Nothing is fetched: the page works from a file, offline.
#include <fmt/format.h>

#include <set>

#include "draw/display_text.h"
#include "draw/markup.h"
#include "draw/writers.h"

namespace onyx::draw {

std::string_view htmlPageScript();  // generated from html_page.js (src/CMakeLists.txt)

namespace {

// Texts longer than this are cut in the page's data (the panel shows them).
constexpr size_t kMaxShownChars = 400;
constexpr size_t kMaxDocChars = 2000;
// A layout item that is not a box (layered_layout.h), as the page's data numbers it
// (data.itemCodes): a bend of an edge, a port in a frame.
constexpr int64_t kBendItem = -1;
constexpr int64_t kPortItem = -2;

constexpr std::string_view kPageStyle = R"css(
html, body { margin: 0; height: 100%; overflow: hidden; font-family: sans-serif; }
#picture { position: absolute; left: 0; top: 0; width: calc(100% - 320px); height: 100%; background: #fff; cursor: grab; }
#side { position: absolute; top: 0; right: 0; width: 320px; bottom: 0; overflow: auto;
        border-left: 1px solid #dadce0; background: #f8f9fa; padding: 8px; box-sizing: border-box;
        font-size: 13px; }
#side input { width: 100%; box-sizing: border-box; padding: 4px; }
#side button { margin: 4px 4px 4px 0; }
#results { padding-left: 16px; }
#results li { cursor: pointer; overflow-wrap: anywhere; }
#panel h2 { font-size: 15px; overflow-wrap: anywhere; }
#panel dd { margin-left: 12px; font-family: monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
.box, .toggle { cursor: pointer; }
.found > rect { stroke: #d93025 !important; stroke-width: 3 !important; }
)css";

// html_page.js names the kinds by their numbers.
static_assert(static_cast<int>(BoxKind::kControlFlow) == 6);

void appendNumber(std::string& out, double value) { out += fmt::format("{:.1f}", value); }

// A JSON array of `texts` as a picture shows them (displayText, cut to `max_chars`).
void appendShown(std::string& out, const std::vector<std::string>& texts, size_t max_chars) {
  out += '[';
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i > 0) out += ',';
    appendJsonString(out, displayText(texts[i], max_chars));
  }
  out += ']';
}

class HtmlWriter {
 public:
  HtmlWriter(const Scene& scene, const SceneLayout& layout, const std::vector<bool>& expanded,
             std::string& out)
      : scene_(scene), layout_(layout), expanded_(expanded), out_(out) {}

  void write() {
    std::string title = displayText(scene_.title, 80);
    if (title.empty()) title = "graph";
    out_ += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    // No network, no inline script but the page's own: what a model names cannot load
    // anything or run.
    out_ +=
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
    out_ += "<title>";
    appendXml(out_, title);
    out_ += " \u2014 onyx draw</title>\n<style>";
    out_ += kPageStyle;
    out_ += pictureStyle();
    out_ += "</style>\n</head>\n<body>\n";
    out_ +=
        "<svg id=\"picture\" xmlns=\"http://www.w3.org/2000/svg\">"
        "<defs><marker id=\"arrow\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"7\" "
        "markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#5f6368\"/>"
        "</marker></defs><g id=\"viewport\"></g></svg>\n";
    out_ +=
        "<div id=\"side\"><input id=\"search\" type=\"search\" placeholder=\"search names, "
        "operators, shapes\" autocomplete=\"off\">"
        "<div><button id=\"fit\">fit</button><button id=\"open-level\">open a level</button>"
        "<button id=\"collapse-all\">collapse all</button> <span id=\"shown\"></span></div>"
        "<ul id=\"results\"></ul><div id=\"panel\"><p>Click a node to see its attributes, a "
        "group to open or close it; drag to pan, scroll to zoom.</p></div></div>\n";
    out_ += "<script type=\"application/json\" id=\"onyx-data\">";
    writeData(title);
    out_ += "</script>\n<script>\n";
    out_ += htmlPageScript();
    out_ += "</script>\n</body>\n</html>\n";
  }

 private:
  void writeData(const std::string& title) {
    out_ += "{\"title\":";
    appendJsonString(out_, title);
    out_ += fmt::format(",\"nodes\":{}", scene_.boxes.empty() ? 0 : scene_.boxes[0].node_count);
    out_ += fmt::format(
        ",\"geometry\":{{\"charWidth\":{},\"lineHeight\":{},\"padding\":{},\"groupPadding\":{},"
        "\"groupHeader\":{},\"itemGap\":{},\"bendWidth\":{},\"rankGap\":{},\"margin\":{},"
        "\"heading\":{}}}",
        Geometry::kCharWidth, Geometry::kLineHeight, Geometry::kPadding, Geometry::kGroupPadding,
        Geometry::kGroupHeader, Geometry::kItemGap, Geometry::kBendWidth, Geometry::kRankGap,
        Geometry::kMargin, Geometry::kHeading);
    // The types each box's values have, for search.
    std::vector<std::set<uint32_t>> outputs(scene_.boxes.size());
    for (const Edge& edge : scene_.edges) {
      if (edge.from != kNoBox) outputs[edge.from].insert(edge.value);
    }
    out_ += ",\"boxes\":[";
    std::vector<std::string_view> fields;  // the first box's, in order
    for (size_t i = 0; i < scene_.boxes.size(); ++i) {
      if (i > 0) out_ += ",\n";
      writeBox(static_cast<uint32_t>(i), outputs[i], i == 0 ? &fields : nullptr);
    }
    // What the script reads the boxes by: the name of each field of a box, in the order
    // written, and the CSS classes of the kinds and changes, in the order of their numbers.
    out_ += "],\"boxFields\":[";
    for (size_t f = 0; f < fields.size(); ++f) {
      if (f > 0) out_ += ',';
      appendJsonString(out_, fields[f]);
    }
    out_ += "],\"kinds\":[";
    for (int kind = 0; kind <= static_cast<int>(BoxKind::kControlFlow); ++kind) {
      if (kind > 0) out_ += ',';
      appendJsonString(out_, kindClass(static_cast<BoxKind>(kind)));
    }
    out_ += "],\"changes\":[";
    for (int change = 0; change <= static_cast<int>(Change::kChanged); ++change) {
      if (change > 0) out_ += ',';
      appendJsonString(out_, changeClass(static_cast<Change>(change)));
    }
    out_ += fmt::format("],\"itemCodes\":{{\"bend\":{},\"port\":{}}}", kBendItem, kPortItem);
    out_ += ",\"values\":[";
    for (size_t i = 0; i < scene_.values.size(); ++i) {
      if (i > 0) out_ += ',';
      out_ += '[';
      appendJsonString(out_, displayText(scene_.values[i].name, kMaxShownChars));
      out_ += ',';
      appendJsonString(out_, displayText(scene_.values[i].type, Geometry::kMaxLabelChars));
      out_ += ']';
    }
    out_ += "],\"layouts\":{";
    bool first = true;
    for (size_t i = 0; i < layout_.groups.size(); ++i) {
      if (!scene_.boxes[i].isGroup()) continue;
      if (!first) out_ += ",\n";
      first = false;
      out_ += fmt::format("\"{}\":", i);
      writeLayout(layout_.groups[i]);
    }
    out_ += "}}";
  }

  // A box as a JSON array of its fields; `names`, when given, gets each field's name, in
  // order (the page's script finds a field by its name: data.boxFields).
  void writeBox(uint32_t index, const std::set<uint32_t>& outputs,
                std::vector<std::string_view>* names) {
    const Box& box = scene_.boxes[index];
    BoxText text = boxText(scene_, index);
    bool first = true;
    auto field = [&](std::string_view name) -> std::string& {
      out_ += first ? '[' : ',';
      first = false;
      if (names != nullptr) names->push_back(name);
      return out_;
    };
    field("kind") += std::to_string(static_cast<int>(box.kind));
    field("change") += std::to_string(static_cast<int>(box.change));
    field("parent") += box.parent == kNoBox ? "-1" : std::to_string(box.parent);
    appendJsonString(field("fill"), heatFill(box));
    appendJsonString(field("title"), text.title);
    appendShown(field("lines"), text.lines, Geometry::kMaxLabelChars);
    appendShown(field("attributes"), box.attributes, kMaxShownChars);
    appendJsonString(field("name"), displayText(box.name, kMaxShownChars));
    appendNumber(field("width"), layout_.closed_width[index]);
    appendNumber(field("height"), layout_.closed_height[index]);
    field("expanded") += box.isGroup() && expanded_[index] ? "1" : "0";
    std::vector<std::string> types;
    for (uint32_t value : outputs) {
      if (!scene_.values[value].type.empty()) types.push_back(scene_.values[value].type);
    }
    appendShown(field("outputs"), types, Geometry::kMaxLabelChars);
    appendJsonString(field("groupTitle"),
                     box.isGroup() ? groupTitle(scene_, index) : std::string());
    appendShown(field("details"), box.details, kMaxShownChars);
    appendJsonString(field("doc"), displayText(box.doc, kMaxDocChars));
    out_ += ']';
  }

  void writeLayout(const GroupLayout& layout) {
    out_ += "{\"items\":[";
    for (size_t i = 0; i < layout.items.size(); ++i) {
      const LayoutItem& item = layout.items[i];
      if (i > 0) out_ += ',';
      int64_t box = item.port            ? kPortItem
                    : item.box == kNoBox ? kBendItem
                                         : static_cast<int64_t>(item.box);
      out_ += fmt::format("[{},{},", box, item.rank);
      appendNumber(out_, item.x);
      out_ += ']';
    }
    out_ += "],\"ranks\":[";
    for (size_t r = 0; r < layout.ranks.size(); ++r) {
      if (r > 0) out_ += ',';
      out_ += fmt::format("[{}]", fmt::join(layout.ranks[r], ","));
    }
    out_ += "],\"routes\":[";
    for (size_t i = 0; i < layout.routes.size(); ++i) {
      const Route& route = layout.routes[i];
      if (i > 0) out_ += ',';
      out_ +=
          fmt::format("[{},{},[{}],{},{},{},{}]", route.from, route.to, fmt::join(route.bends, ","),
                      route.value, route.count, route.reversed ? 1 : 0, route.start);
    }
    out_ += "]}";
  }

  const Scene& scene_;
  const SceneLayout& layout_;
  const std::vector<bool>& expanded_;
  std::string& out_;
};

}  // namespace

void writeHtml(const Scene& scene, const SceneLayout& layout, const std::vector<bool>& expanded,
               std::string& out) {
  HtmlWriter(scene, layout, expanded, out).write();
}

}  // namespace onyx::draw
