// Test support: hand-written models in the ONNX text syntax, valid ones, that between them
// use every form of the grammar (header keys, every type, tensor constants of every storage
// field, external data, attributes of every kind, references, subgraphs, functions with
// defaults and overloads, quoted names, comments, numbers in every spelling).
//
// The round-trip tests parse each one; the fuzz seed generator writes them out as the
// text parser's seed corpus.
#pragma once

#include <string_view>
#include <vector>

namespace onyx::testing {

struct TextSample {
  std::string_view name;
  std::string_view text;
};

/// Whole models, each accepted by parseText.
const std::vector<TextSample>& textSamples();

}  // namespace onyx::testing
