// Test support for the checker: check a model written in the ONNX text syntax or built as
// bytes, and read the rule ids of what it reported.
//
//   Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]> ...)");
//   EXPECT_EQ(errorRules(found), Rules{"R29"}) << listed(found);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/ir/model.h"

namespace onyx::testing {

using Rules = std::vector<std::string>;

/// The model `text` describes (ONNX text syntax); a text that does not parse fails the
/// test and gives an empty model.
Model parseOrFail(std::string_view text);

/// Parses `text` and checks the model.
Diagnostics checkText(std::string_view text, const CheckOptions& options = {});

/// Decodes `bytes` (a ModelProto) and checks the model; bytes that do not decode fail the
/// test.
Diagnostics checkBytes(const std::string& bytes, const CheckOptions& options = {});

/// The rule ids of the errors (warnings), in the order reported.
Rules errorRules(const Diagnostics& diagnostics);
Rules warningRules(const Diagnostics& diagnostics);

/// The path of the first diagnostic with `rule`, or "(none)".
std::string pathOf(const Diagnostics& diagnostics, std::string_view rule);

/// Every diagnostic, one per line, for failure messages.
std::string listed(const Diagnostics& diagnostics);

}  // namespace onyx::testing
