// Boxes coloured by a measure per node (DrawOptions::heat): `onyx draw --cost`, `--profile`.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "draw/scene.h"

namespace onyx::draw {

namespace {

// `1.25 GFLOPs`, `3.2 ms`: the measure with the unit, large counts with an SI prefix.
std::string measureText(double value, std::string_view unit) {
  if (unit == "ms") return fmt::format("{:.3g} ms", value);
  static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P"};
  size_t prefix = 0;
  while (std::fabs(value) >= 1000 && prefix + 1 < std::size(kPrefixes)) {
    value /= 1000;
    ++prefix;
  }
  return fmt::format("{:.3g} {}{}", value, kPrefixes[prefix], unit);
}

}  // namespace

void applyHeat(Scene& scene, const std::unordered_map<const Node*, double>& heat,
               std::string_view unit) {
  if (heat.empty()) return;
  std::vector<double> sum(scene.boxes.size(), 0.0);
  std::vector<bool> measured(scene.boxes.size(), false);
  for (size_t i = 0; i < scene.boxes.size(); ++i) {
    Box& box = scene.boxes[i];
    auto found = box.node != nullptr ? heat.find(box.node) : heat.end();
    if (found == heat.end()) continue;
    sum[i] = std::max(found->second, 0.0);
    measured[i] = true;
    box.details.insert(box.details.begin(), measureText(found->second, unit));
  }
  // A parent comes before its children: the last box first adds each into its parent. A node
  // box holding a body (a call, a control-flow node) keeps its own measure.
  for (size_t i = scene.boxes.size(); i-- > 0;) {
    uint32_t parent = scene.boxes[i].parent;
    if (parent == kNoBox || !measured[i] || scene.boxes[parent].isNode()) continue;
    sum[parent] += sum[i];
    measured[parent] = true;
  }
  // The main graph's box holds everything and is never drawn closed: no group to compare with.
  double largest_node = 0;
  double largest_group = 0;
  for (size_t i = 0; i < scene.boxes.size(); ++i) {
    if (!measured[i] || scene.boxes[i].parent == kNoBox) continue;
    double& largest = scene.boxes[i].isNode() ? largest_node : largest_group;
    largest = std::max(largest, sum[i]);
  }
  for (size_t i = 0; i < scene.boxes.size(); ++i) {
    if (!measured[i] || scene.boxes[i].parent == kNoBox) continue;
    double largest = scene.boxes[i].isNode() ? largest_node : largest_group;
    scene.boxes[i].heat = largest > 0 ? sum[i] / largest : 0;
  }
}

std::string heatFill(const Box& box) {
  if (box.heat < 0) return {};
  // White to a light red (#f28b82): text stays readable on the hottest box.
  double share = std::clamp(box.heat, 0.0, 1.0);
  auto channel = [share](int to) {
    return static_cast<int>(std::lround(255 + (to - 255) * share));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", channel(0xf2), channel(0x8b), channel(0x82));
}

}  // namespace onyx::draw
