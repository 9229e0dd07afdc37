// The scene of two versions of a model, aligned by Box::key (scene.h).
#pragma once

#include "draw/scene.h"

namespace onyx::draw {

/// `after`'s scene, with each box marked (Box::change): added when `before` has no box of its
/// key, changed when its signature differs. Nodes of `before` that `after` lacks are put back,
/// marked removed, in the group of the same key (else the main graph), after the box that came
/// before them there, with the edges they had. A node with no key (no named output, no name)
/// has no identity across versions and is not marked.
Status buildDiffScene(const Model& before, const Model& after, Scene& scene);

}  // namespace onyx::draw
