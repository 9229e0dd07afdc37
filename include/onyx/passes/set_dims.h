// onyx/passes/set_dims.h — fixing or freeing a dimension of a model's inputs, and the
// constants an exporter baked it into.
//
// A model exported at batch 2 declares `input_ids: int64[2,S]`, and its exporter folded every
// computation of the batch into constants: Reshape targets `[2,-1,4,64]`, Expand shapes
// `[2,1,S,S]`, ConstantOfShape shapes `[2,4,0,64]` (often built by Concat from pieces).
// Changing the input's declaration is not enough: those constants still say 2. setDims changes
// the declaration and traces the constants: it gives the input dimension a fresh symbol, runs
// symbolic inference, and finds each shape a Reshape, Expand or ConstantOfShape reads whose
// known elements hold the old number where the traced dimension belongs (at the position of
// the symbol in the reshaped or expanded data; for ConstantOfShape and an Expand of data without
// it, at the input's axis). Each such shape is replaced: by a constant holding the new number,
// or, for a symbol, by 0 (Reshape: copy the input's dimension) or 1 (Expand: keep it) where the
// data has the symbol at that position, else by the input's dimension read at run time
// (Shape, Gather, Concat). What cannot be traced (a Reshape whose data has the dimension but
// whose shape holds the old number at several other places) is refused, naming the node.
// Then the declarations of outputs and value_info that contradict inference follow it.
//
// A dimension declared by a symbol (`batch`) baked nothing: every declaration that names the
// symbol takes the new number or symbol.
//
// Errors are Status values (kNotFound for an input or symbol the model does not have,
// kInvalidArgument for what cannot be traced); the model is then unchanged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct DimSetting {
  /// A main graph input and one of its axes; or, with `input` empty, every dimension named
  /// `symbol`.
  std::string input;
  int64_t axis = 0;
  std::string symbol;
  /// The new size, or (unset) the new symbol `to_symbol`.
  std::optional<int64_t> to_value;
  std::string to_symbol;
};

/// Reads `NAME=VALUE`, `NAME=SYMBOL`, `INPUT:AXIS=VALUE` or `INPUT:AXIS=SYMBOL` (the form the
/// command line takes); an error saying what is wrong.
Result<DimSetting> parseDimSetting(std::string_view text);

struct SetDimsReport {
  /// The nodes whose shape input was rewritten, by name (or operator when unnamed).
  std::vector<std::string> rewritten;
  /// Declarations of outputs and value_info changed to follow the new dimensions.
  size_t declarations_changed = 0;
};

/// Applies every setting to `model` (see above), all or nothing.
Result<SetDimsReport> setDims(Model& model, std::span<const DimSetting> settings);

}  // namespace onyx

#pragma GCC visibility pop
