// A scene as one SVG document: boxes, expanded groups as frames around their own layout,
// edges as curves with the value's type at their start.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "draw/display_text.h"
#include "draw/markup.h"
#include "draw/writers.h"

namespace onyx::draw {

namespace {

constexpr double kMargin = Geometry::kMargin;
constexpr double kHeading = Geometry::kHeading;
constexpr double kLabelCharWidth = 6;  // 10 px monospace (text.label)

// The styles of both the SVG and the HTML page's drawing (html_writer.cc embeds it).
constexpr std::string_view kStyle = R"css(
text { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; fill: #202124; }
text.title { font-weight: bold; }
text.heading { font-size: 14px; font-weight: bold; }
text.label { font-size: 10px; fill: #5f6368; }
.box > rect { fill: #e8f0fe; stroke: #4a6fa5; stroke-width: 1; }
.box.input > rect { fill: #e6f4ea; stroke: #34a853; }
.box.output > rect { fill: #fef7e0; stroke: #c5a100; }
.box.collapsed > rect { fill: #eceff1; stroke: #607d8b; }
.box.collapsed > rect.under { fill: #cfd8dc; }
.group > rect { fill: #fafafa; fill-opacity: 0.6; stroke: #9aa0a6; stroke-dasharray: 4 2; }
.group.call > rect, .group.control > rect { fill: #f3e8fd; stroke: #8e44ad; }
.group.graph > rect { fill: #ffffff; stroke: #bdc1c6; }
.added > rect { fill: #d7f5dd !important; stroke: #1e8e3e !important; stroke-width: 2 !important; }
.removed > rect { fill: #fce8e6 !important; stroke: #d93025 !important; stroke-width: 2 !important; stroke-dasharray: 5 3 !important; }
.changed > rect { fill: #fef0c7 !important; stroke: #e37400 !important; stroke-width: 2 !important; }
path.edge { fill: none; stroke: #5f6368; stroke-width: 1.2; }
path.edge.reversed { stroke-dasharray: 3 3; }
)css";

struct Point {
  double x;
  double y;
};

class SvgPainter {
 public:
  SvgPainter(const Scene& scene, const SceneLayout& layout, const std::vector<bool>& expanded,
             std::string& result)
      : scene_(scene), layout_(layout), expanded_(expanded), result_(result) {}

  void paint() {
    std::string heading = displayText(scene_.title, 80);
    if (heading.empty()) heading = "graph";
    size_t nodes = scene_.boxes.empty() ? 0 : scene_.boxes[0].node_count;
    heading += fmt::format(" \u2014 {} node{}", nodes, nodes == 1 ? "" : "s");
    out_ += fmt::format(R"(<text class="heading" x="{:.1f}" y="{:.1f}">)", kMargin, kMargin + 12);
    appendXml(out_, heading);
    out_ += "</text>\n";
    if (!scene_.boxes.empty()) paintContent(0, kMargin, kMargin + kHeading);
    // The picture's size, known once everything is placed: labels may reach past the boxes.
    const GroupLayout& root = layout_.groups.empty() ? empty_ : layout_.groups[0];
    double width = std::max({root.width + 2 * kMargin, 200.0, right_ + kMargin});
    double height = root.height + 2 * kMargin + kHeading;
    result_ += R"(<?xml version="1.0" encoding="UTF-8"?>)"
               "\n";
    result_ +=
        fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0:.0f}" height="{1:.0f}" )"
                    R"(viewBox="0 0 {0:.0f} {1:.0f}">)"
                    "\n",
                    width, height);
    result_ += "<style>";
    result_ += kStyle;
    result_ += "</style>\n";
    result_ += R"(<defs><marker id="arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" )"
               R"(markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#5f6368"/>)"
               "</marker></defs>\n";
    result_ += out_;
    result_ += "</svg>\n";
  }

 private:
  // The layout of expanded group `group`, its content's top left corner at (left, top).
  void paintContent(uint32_t group, double left, double top) {
    const GroupLayout& layout = layout_.groups[group];
    for (const LayoutItem& item : layout.items) {
      if (item.box == kNoBox) continue;
      paintBox(item.box, left + item.x - item.width / 2, top + item.y, item.width, item.height);
    }
    std::set<std::pair<uint32_t, std::string>> labelled;  // (item, type)
    for (const Route& route : layout.routes) paintRoute(layout, route, left, top, labelled);
  }

  void paintBox(uint32_t index, double left, double top, double width, double height) {
    const Box& box = scene_.boxes[index];
    bool open = box.isGroup() && expanded_[index];
    bool collapsed = box.isGroup() && !open;
    out_ += fmt::format(R"(<g class="{} {}{}{}")", open ? "group" : "box", kindClass(box.kind),
                        collapsed ? " collapsed" : "", changeClass(box.change));
    if (collapsed) out_ += " data-collapsed=\"1\"";
    out_ += ">";
    paintTooltip(box);
    if (open) {
      out_ += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" rx="6"/>)",
                          left, top, width, height);
      std::string title = groupTitle(scene_, index);
      out_ += fmt::format(R"(<text class="title" x="{:.1f}" y="{:.1f}">)",
                          left + Geometry::kPadding, top + Geometry::kLineHeight);
      appendXml(out_, title);
      out_ += "</text>\n";
      paintContent(index, left + Geometry::kGroupPadding,
                   top + Geometry::kGroupHeader + Geometry::kGroupPadding);
      out_ += "</g>\n";
      return;
    }
    if (box.isGroup()) {
      out_ += fmt::format(
          R"(<rect class="under" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" rx="4"/>)",
          left + 3, top + 3, width, height);
    }
    std::string fill = heatFill(box);
    out_ += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" rx="4"{}/>)",
                        left, top, width, height,
                        fill.empty() ? std::string() : " style=\"fill:" + fill + "\"");
    BoxText text = boxText(scene_, index);
    double y = top + Geometry::kPadding + Geometry::kLineHeight - 3;
    out_ +=
        fmt::format(R"(<text class="title" x="{:.1f}" y="{:.1f}">)", left + Geometry::kPadding, y);
    appendXml(out_, text.title);
    out_ += "</text>";
    for (const std::string& line : text.lines) {
      y += Geometry::kLineHeight;
      out_ += fmt::format(R"(<text x="{:.1f}" y="{:.1f}">)", left + Geometry::kPadding, y);
      appendXml(out_, line);
      out_ += "</text>";
    }
    out_ += "</g>\n";
  }

  // What a viewer shows on hover: the whole name, the attributes, the details.
  void paintTooltip(const Box& box) {
    out_ += "<title>";
    appendXml(out_, displayText(box.title, 200));
    if (!box.name.empty()) {
      out_ += ' ';
      appendXml(out_, displayText(box.name, 400));
    }
    for (const std::string& attribute : box.attributes) {
      out_ += '\n';
      appendXml(out_, displayText(attribute, 400));
    }
    for (const std::string& detail : box.details) {
      out_ += '\n';
      appendXml(out_, displayText(detail, 400));
    }
    if (!box.doc.empty()) {
      out_ += '\n';
      appendXml(out_, displayText(box.doc, 400));
    }
    out_ += "</title>";
  }

  void paintRoute(const GroupLayout& layout, const Route& route, double left, double top,
                  std::set<std::pair<uint32_t, std::string>>& labelled) {
    const LayoutItem& from = layout.items[route.start];
    const LayoutItem& to = layout.items[route.to];
    // Top to bottom: the upper box's bottom, through each bend's rank, the lower box's top.
    const LayoutItem& upper = route.reversed ? to : from;
    const LayoutItem& lower = route.reversed ? from : to;
    double upper_dx = route.reversed ? route.end_dx : route.start_dx;
    double lower_dx = route.reversed ? route.start_dx : route.end_dx;
    std::vector<Point> points;
    std::vector<bool> straight;  // segment i, from points[i] to points[i + 1]
    // A port stands for the group's frame: the edge runs from the frame's top or to its bottom.
    double start = upper.port ? top - Geometry::kGroupHeader - Geometry::kGroupPadding
                              : top + upper.y + upper.height;
    double end = lower.port ? top + layout.height + Geometry::kGroupPadding : top + lower.y;
    points.push_back({left + upper.x + upper_dx, start});
    auto add_bend = [&](uint32_t bend) {
      const LayoutItem& item = layout.items[bend];
      straight.push_back(false);
      points.push_back({left + item.x, top + item.y});
      straight.push_back(true);
      points.push_back({left + item.x, top + item.y + item.height});
    };
    if (route.reversed) {
      for (size_t i = route.bends.size(); i-- > 0;) add_bend(route.bends[i]);
    } else {
      for (uint32_t bend : route.bends) add_bend(bend);
    }
    straight.push_back(false);
    points.push_back({left + lower.x + lower_dx, end});
    if (route.reversed) {
      std::reverse(points.begin(), points.end());
      std::reverse(straight.begin(), straight.end());
    }
    const SceneValue& value = scene_.values[route.value];
    out_ += fmt::format(R"svg(<path class="edge{}" marker-end="url(#arrow)" d="M{:.1f},{:.1f})svg",
                        route.reversed ? " reversed" : "", points[0].x, points[0].y);
    for (size_t i = 0; i + 1 < points.size(); ++i) {
      const Point& a = points[i];
      const Point& b = points[i + 1];
      if (straight[i]) {
        out_ += fmt::format(" L{:.1f},{:.1f}", b.x, b.y);
      } else {
        double middle = (a.y + b.y) / 2;
        out_ += fmt::format(" C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}", a.x, middle, b.x, middle,
                            b.x, b.y);
      }
    }
    out_ += "\"><title>";
    appendXml(out_, displayText(value.name, 400));
    if (route.count > 1) out_ += fmt::format(" and {} more", route.count - 1);
    out_ += "</title></path>\n";
    // One label per type leaving a box: values of one type side by side say it once.
    if (value.type.empty() || route.start != route.from ||
        !labelled.insert({route.from, value.type}).second) {
      return;
    }
    double x = left + from.x + route.start_dx + 3;
    double y = route.reversed ? top + from.y - 4 : top + from.y + from.height + 11;
    std::string label = displayText(value.type, Geometry::kMaxLabelChars);
    right_ = std::max(right_, x + static_cast<double>(displayLength(label)) * kLabelCharWidth);
    out_ += fmt::format(R"(<text class="label" x="{:.1f}" y="{:.1f}">)", x, y);
    appendXml(out_, label);
    out_ += "</text>\n";
  }

  const Scene& scene_;
  const SceneLayout& layout_;
  const std::vector<bool>& expanded_;
  std::string& result_;
  std::string out_;   // the drawing, written before the header that needs its size
  double right_ = 0;  // the rightmost label's end
  GroupLayout empty_;
};

}  // namespace

const char* kindClass(BoxKind kind) {
  switch (kind) {
    case BoxKind::kNode: return "node";
    case BoxKind::kInput: return "input";
    case BoxKind::kOutput: return "output";
    case BoxKind::kGraph: return "graph";
    case BoxKind::kScope: return "scope";
    case BoxKind::kCall: return "call";
    case BoxKind::kControlFlow: return "control";
  }
  return "node";
}

const char* changeClass(Change change) {
  switch (change) {
    case Change::kSame: return "";
    case Change::kAdded: return " added";
    case Change::kRemoved: return " removed";
    case Change::kChanged: return " changed";
  }
  return "";
}

void writeSvg(const Scene& scene, const SceneLayout& layout, const std::vector<bool>& expanded,
              std::string& out) {
  SvgPainter(scene, layout, expanded, out).paint();
}

std::string_view pictureStyle() { return kStyle; }

}  // namespace onyx::draw
