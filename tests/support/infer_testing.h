// Test support for shape inference: a model written in the text syntax, inferred.
//
//   InferredText m = inferText(R"(
//     <ir_version: 10, opset_import: ["" : 21]>
//     g (float[N, 3] x) => (y) { y = Relu(x) })");
//   EXPECT_EQ(m.typeOf("y"), "float[N,3]");
//   EXPECT_FALSE(m.result.diagnostics.hasErrors());
#pragma once

#include <string>
#include <string_view>

#include "onyx/infer/infer.h"
#include "onyx/ir/model.h"

namespace onyx::testing {

struct InferredText {
  Model model;
  InferResult result;

  /// The type of the value named `name` in the main graph after inference, as formatType
  /// prints it (`float[N,3]`, `int64[?]`, `float` for unknown rank); "none" when it has no
  /// type, "missing" when no such value.
  std::string typeOf(std::string_view name) const;
  /// Whether a diagnostic with this rule id was reported.
  bool has(std::string_view rule) const { return result.diagnostics.has(rule); }
  /// Whether an operator rule refused a node (X5) with a message containing `words`.
  bool refused(std::string_view words) const;
  /// All diagnostics, one per line (for failure messages).
  std::string diagnostics() const;
};

/// Parses `text` (a whole model; the test fails on a parse error) and infers it.
InferredText inferText(std::string_view text, const InferOptions& options = {});

}  // namespace onyx::testing
