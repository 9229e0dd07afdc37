// drawModel and drawDiff: build the scene, lay it out, write it.
#include "onyx/draw/draw.h"

#include <cctype>
#include <string>

#include "draw/layered_layout.h"
#include "draw/scene.h"
#include "draw/scene_diff.h"
#include "draw/writers.h"

namespace onyx {

namespace {

Status writePicture(draw::Scene& scene, const DrawOptions& options, std::string& out) {
  if (!options.title.empty()) scene.title = options.title;
  draw::applyHeat(scene, options.heat, options.heat_unit);
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

std::string_view drawFormatName(DrawFormat format) {
  switch (format) {
    case DrawFormat::kSvg: return "svg";
    case DrawFormat::kDot: return "dot";
    case DrawFormat::kHtml: return "html";
  }
  return "svg";
}

std::optional<DrawFormat> drawFormatNamed(std::string_view name) {
  for (DrawFormat format : {DrawFormat::kSvg, DrawFormat::kDot, DrawFormat::kHtml}) {
    if (drawFormatName(format) == name) return format;
  }
  return std::nullopt;
}

std::optional<DrawFormat> drawFormatOfPath(std::string_view path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) {
    return std::nullopt;
  }
  std::string extension(path.substr(dot + 1));
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == "gv") return DrawFormat::kDot;
  if (extension == "htm") return DrawFormat::kHtml;
  return drawFormatNamed(extension);
}

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
