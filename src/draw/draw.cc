// drawModel and drawDiff: infer a copy, build the scene, lay it out, write it.
#include "onyx/draw/draw.h"

#include "draw/layered_layout.h"
#include "draw/scene.h"
#include "draw/scene_diff.h"
#include "draw/writers.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/clone.h"

namespace onyx {

namespace {

// A copy of `model` with the types inference finds written into it; the model itself stays
// as it was.
Model inferredCopy(const Model& model) {
  Model copy = cloneModel(model);
  InferOptions options;
  options.write_back = true;
  (void)inferModel(copy, options);
  return copy;
}

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
  Model inferred = inferredCopy(model);
  draw::Scene scene;
  Status built = draw::buildScene(inferred, scene);
  if (!built.isOk()) return built;
  return writePicture(scene, options, out);
}

Status drawDiff(const Model& before, const Model& after, const DrawOptions& options,
                std::string& out) {
  Model inferred_before = inferredCopy(before);
  Model inferred_after = inferredCopy(after);
  draw::Scene scene;
  Status built = draw::buildDiffScene(inferred_before, inferred_after, scene);
  if (!built.isOk()) return built;
  return writePicture(scene, options, out);
}

}  // namespace onyx
