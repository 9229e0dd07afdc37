// The three formats of a picture. Each takes the scene and which groups are expanded;
// SVG and HTML take its layout too (DOT leaves the layout to Graphviz).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "draw/layered_layout.h"
#include "draw/scene.h"

namespace onyx::draw {

void writeSvg(const Scene& scene, const SceneLayout& layout, const std::vector<bool>& expanded,
              std::string& out);

void writeDot(const Scene& scene, const std::vector<bool>& expanded, std::string& out);

/// The CSS of the SVG's boxes and edges, which the HTML page's drawing shares.
std::string_view pictureStyle();
/// The CSS class of a box of `kind`, and the one a change adds (with its space; "" for
/// kSame): the SVG's, which the HTML page's script reads from the page's data.
const char* kindClass(BoxKind kind);
const char* changeClass(Change change);

/// `layout` holds every group's layout (layoutScene with all_groups).
void writeHtml(const Scene& scene, const SceneLayout& layout, const std::vector<bool>& expanded,
               std::string& out);

}  // namespace onyx::draw
