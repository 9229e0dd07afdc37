// What `onyx run` and `onyx compare` run a model on, and what they keep of it: the inputs given
// (--input NAME=FILE) or made up (generated_inputs.h), and intermediate values made outputs
// (--keep, --keep-all).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/model.h"

namespace onyx::tool {

/// What a command was told about a run's inputs.
struct InputArguments {
  std::vector<std::string> inputs;  // NAME=FILE, .pb or .npy
  std::vector<std::string> dims;    // NAME=VALUE: sizes of symbolic dimensions
  uint64_t seed = 0;                // for the inputs made up
};

/// Makes the values `names` name (or, with `all`, every node's outputs) outputs of the main
/// graph after its own: an error naming a value the main graph does not see.
Status keepValues(Model& model, const std::vector<std::string>& names, bool all);

/// The value for graph input `name` of `graph` in the file at `path`: .npy, else a .pb of the
/// message the input's type takes.
Result<EvalValue> readInput(const Graph& graph, const std::string& name, const std::string& path);

/// The inputs given followed by those made up for the tensor inputs left out (one line each on
/// stderr); an error, with the exit status in `exit_status`, when they cannot be had.
Result<std::vector<NamedValue>> gatherInputs(const InputArguments& arguments, const Graph& graph,
                                             int& exit_status);

}  // namespace onyx::tool
