#include "draw/scene_diff.h"

#include <algorithm>
#include <unordered_map>

namespace onyx::draw {

namespace {

bool isNodeBox(const Box& box) {
  return box.kind == BoxKind::kNode || box.kind == BoxKind::kCall ||
         box.kind == BoxKind::kControlFlow;
}

// Boxes by key; a key two boxes share (a model that reuses a name) matches neither.
std::unordered_map<std::string_view, uint32_t> byKey(const Scene& scene) {
  std::unordered_map<std::string_view, uint32_t> keyed;
  for (size_t i = 0; i < scene.boxes.size(); ++i) {
    const std::string& key = scene.boxes[i].key;
    if (key.empty()) continue;
    auto [found, inserted] = keyed.try_emplace(key, static_cast<uint32_t>(i));
    if (!inserted) found->second = kNoBox;
  }
  return keyed;
}

}  // namespace

Status buildDiffScene(const Model& before, const Model& after, Scene& scene) {
  Scene old_scene;
  Status built = buildScene(before, old_scene);
  if (!built.isOk()) return built;
  built = buildScene(after, scene);
  if (!built.isOk()) return built;
  auto old_keys = byKey(old_scene);
  auto new_keys = byKey(scene);
  // Marks on the new boxes.
  for (Box& box : scene.boxes) {
    if (box.key.empty() ||
        !(isNodeBox(box) || box.kind == BoxKind::kInput || box.kind == BoxKind::kOutput)) {
      continue;
    }
    // A key two old boxes share cannot be matched: its boxes count as the same.
    auto found = old_keys.find(box.key);
    if (found == old_keys.end()) {
      box.change = Change::kAdded;
    } else if (found->second != kNoBox &&
               old_scene.boxes[found->second].signature != box.signature) {
      box.change = Change::kChanged;
    }
  }
  // The old boxes in the new scene: matched ones by key, removed nodes added below.
  std::vector<uint32_t> placed(old_scene.boxes.size(), kNoBox);
  std::vector<bool> kept(old_scene.boxes.size(), false);  // its key is in the new scene
  for (size_t i = 0; i < old_scene.boxes.size(); ++i) {
    const std::string& key = old_scene.boxes[i].key;
    if (key.empty()) continue;
    auto found = new_keys.find(key);
    if (found == new_keys.end()) continue;
    kept[i] = true;
    placed[i] = found->second;  // kNoBox when two new boxes share the key
  }
  if (!scene.boxes.empty()) placed[0] = 0;
  for (size_t i = 1; i < old_scene.boxes.size(); ++i) {
    const Box& old_box = old_scene.boxes[i];
    if (kept[i] || !isNodeBox(old_box)) continue;
    // What a removed node held goes with it.
    bool held = false;
    for (uint32_t at = old_box.parent; at != kNoBox; at = old_scene.boxes[at].parent) {
      if (isNodeBox(old_scene.boxes[at]) &&
          (!kept[at] ||
           (placed[at] != kNoBox && scene.boxes[placed[at]].change == Change::kRemoved))) {
        held = true;
      }
    }
    if (held) continue;
    // Into the group of its old group's key, or the nearest one that is still there.
    uint32_t group = kNoBox;
    for (uint32_t at = old_box.parent; at != kNoBox && group == kNoBox;
         at = old_scene.boxes[at].parent) {
      if (placed[at] != kNoBox && scene.boxes[placed[at]].isGroup()) group = placed[at];
      if (at == 0) group = 0;
    }
    if (group == kNoBox) group = 0;
    // After the box that came before it in its old group, when that one is there too.
    const auto& old_siblings = old_scene.boxes[old_box.parent].children;
    auto at_old = std::find(old_siblings.begin(), old_siblings.end(), static_cast<uint32_t>(i));
    uint32_t previous = kNoBox;
    for (auto it = at_old; it != old_siblings.begin();) {
      --it;
      if (placed[*it] != kNoBox) {
        previous = placed[*it];
        break;
      }
    }
    auto index = static_cast<uint32_t>(scene.boxes.size());
    Box removed = old_box;
    removed.change = Change::kRemoved;
    removed.children.clear();  // what a removed node held is not drawn
    if (removed.kind != BoxKind::kNode) removed.kind = BoxKind::kNode;
    removed.parent = group;
    scene.boxes.push_back(std::move(removed));
    auto& children = scene.boxes[group].children;
    auto after_previous = std::find(children.begin(), children.end(), previous);
    children.insert(after_previous == children.end() ? children.begin() : after_previous + 1,
                    index);
    placed[i] = index;
  }
  // The removed nodes' edges, with their values.
  for (const Edge& edge : old_scene.edges) {
    uint32_t from = placed[edge.from];
    uint32_t to = placed[edge.to];
    if (from == kNoBox || to == kNoBox) continue;
    if (scene.boxes[from].change != Change::kRemoved &&
        scene.boxes[to].change != Change::kRemoved) {
      continue;
    }
    auto value = static_cast<uint32_t>(scene.values.size());
    scene.values.push_back(old_scene.values[edge.value]);
    scene.edges.push_back({from, to, value});
  }
  countNodesAndDepths(scene);
  return Status::ok();
}

}  // namespace onyx::draw
