// drawModel and drawDiff: build the scene, lay it out, write it.
#include "onyx/draw/draw.h"

#include "draw/layered_layout.h"
#include "draw/scene.h"
#include "draw/scene_diff.h"
#include "draw/writers.h"

namespace onyx {

namespace {

Status writePicture(draw::Scene& scene, const DrawOptions& options, std::string& out) {
  if (!options.title.empty()) scene.title = options.title;
  int depth = options.depth ? *options.depth : draw::depthWithin(scene, options.box_budget);
  std::vector<bool> expanded = draw::expandedGroups(scene, depth, options.collapse);
  switch (options.format) {
    case DrawFormat::kDot: draw::writeDot(scene, expanded, out); return Status::ok();
    case DrawFormat::kSvg:
      draw::writeSvg(scene, draw::layoutScene(scene, expanded, false), expanded, out);
      return Status::ok();
    case DrawFormat::kHtml:
      draw::writeHtml(scene, draw::layoutScene(scene, expanded, true), expanded, out);
      return Status::ok();
  }
  return Status(ErrorCode::kInvalidArgument, "unknown picture format");
}

}  // namespace

Status drawModel(const Model& model, const DrawOptions& options, std::string& out) {
  draw::Scene scene;
  Status built = draw::buildScene(model, scene);
  if (!built.isOk()) return built;
  return writePicture(scene, options, out);
}

Status drawDiff(const Model& before, const Model& after, const DrawOptions& options,
                std::string& out) {
  draw::Scene scene;
  Status built = draw::buildDiffScene(before, after, scene);
  if (!built.isOk()) return built;
  return writePicture(scene, options, out);
}

}  // namespace onyx
