// The note `onyx check` and `onyx optimize --profile` print for a model that lists
// initializers as graph inputs while a caller may override them (IR 4 on): how many there are,
// and what inference cannot know because of it.
#pragma once

#include <string>

#include "onyx/ir/model.h"

namespace onyx::tool {

/// One line (without a newline), or empty when no initializer of the main graph is an input
/// a caller may override. Runs inference once, recording nothing, when there is one.
std::string initializerInputsNote(const Model& model);

}  // namespace onyx::tool
