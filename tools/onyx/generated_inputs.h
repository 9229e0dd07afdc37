// The inputs `onyx run` makes up for a graph input the user leaves out, as
// onnxruntime_perf_test does: the declared element type and shape, symbolic dims sized by
// `--dim NAME=VALUE`, and values drawn from a fixed seed, so that two runs with the same seed
// see the same inputs on every platform.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "onyx/core/array.h"
#include "onyx/core/status.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/model.h"

namespace onyx::tool {

/// Sizes of symbolic dimensions, by name (`--dim N=1`).
using DimSizes = std::map<std::string, int64_t, std::less<>>;

/// Reads one `--dim NAME=VALUE` into `sizes`; an error for a malformed binding, a negative or
/// non-numeric value, or a name given twice.
Status addDimSize(std::string_view binding, DimSizes& sizes);

/// An error naming the first of `sizes` that no input of `graph` declares (a misspelt name
/// would otherwise go unnoticed).
Status checkDimSizesUsed(const Graph& graph, const DimSizes& sizes);

/// Declares the main graph's inputs' named dimensions that `sizes` gives with those numbers,
/// so that inference carries them through the graph (`info --cost`, `draw --cost`).
void sizeInputs(Model& model, const DimSizes& sizes);

/// Values for graph input `formal` (a tensor of known element type and rank): every symbolic
/// dim taken from `sizes`, elements drawn from `seed` mixed with the input's name (an
/// input's values do not depend on which other inputs are given). An error naming the input
/// and the dimension when a size is missing, and for inputs that are not tensors.
///  - floating-point types: uniform in [0, 1), rounded to the type. Non-negative like
///    onnxruntime_perf_test's [0, 5), so Sqrt and Log see valid inputs; below 1 like a
///    normalised image, so exponentials stay finite. Complex: both parts so.
///  - integers of 8 bits or fewer: every non-negative value of the type (bytes of an image,
///    quantized values, as onnxruntime_perf_test fills 8-bit inputs); wider integers 0..9,
///    since they are mostly indices, token ids and counts, which must stay small to be valid.
///  - BOOL: true or false, even odds. STRING: empty strings.
Result<Array> generateInput(const Value& formal, const DimSizes& sizes, uint64_t seed);

/// What generateInput draws for `type`, in a few words: "uniform in [0, 1)".
std::string describeGeneratedValues(ElementType type);

}  // namespace onyx::tool
