// Test support for the graph API: models built through the API, verified and round-tripped.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "onyx/ir/model.h"

namespace onyx::testing {

/// Passes when verifyModel finds nothing, else fails with what it found.
::testing::AssertionResult verified(const Model& model);
/// The same for one graph and what it holds.
::testing::AssertionResult verified(const Graph& graph);

/// A model decoded from `bytes`, which it keeps (a copy) alive.
Model parseOwned(const std::string& bytes);
/// serializeModel's bytes; fails the test when it fails.
std::string bytesOf(const Model& model);
/// The model written and read back.
Model reparse(const Model& model);

/// An empty model: ir_version 10, opset {"" 18}, a main graph named `graph_name`.
Model emptyModel(std::string_view graph_name = "g");

/// A float tensor `name` with these dims and values (in raw_data, in the model's arena).
Tensor* floatTensor(Arena& arena, std::string_view name, std::initializer_list<int64_t> dims,
                    std::initializer_list<float> values);

/// The graph's op types in list order, joined by spaces ("Relu Add").
std::string opTypes(const Graph& graph);

}  // namespace onyx::testing
