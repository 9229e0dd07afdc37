// Diagnostics print as one line each, whatever the names in the file hold.
#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/core/diagnostic.h"
#include "onyx/ir/editor.h"
#include "support/check_testing.h"

namespace onyx {
namespace {

TEST(Diagnostics, ControlCharactersInPathsAndMessagesAreEscaped) {
  Diagnostics diagnostics;
  diagnostics.error("R29", "graph.node[0](a\nb)", std::string("x\ty\rz\x01", 6));
  ASSERT_EQ(diagnostics.all().size(), 1u);
  EXPECT_EQ(diagnostics.all()[0].path, "graph.node[0](a\\nb)");
  EXPECT_EQ(diagnostics.all()[0].message, "x\\ty\\rz\\x01");
  EXPECT_EQ(diagnostics.errorCount(), 1u);
}

TEST(Diagnostics, AnOperatorNameWithANewlineStaysOnOneLine) {
  // Found by fuzz_checker: R29 named the producing node by its op_type, unescaped.
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 17, "custom" : 1]>
g (float[2] x) => (float[2] y) {
  y = custom.Op (x)
  y = Relu (x)
})");
  model.graph->firstNode()->op_type = GraphEditor(model).arena().copy("Momentum*\nal");
  Diagnostics found = checkModel(model);
  ASSERT_TRUE(found.has("R29")) << found.all().size();
  for (const Diagnostic& diagnostic : found.all()) {
    EXPECT_EQ(diagnostic.toString().find('\n'), std::string::npos) << diagnostic.toString();
  }
}

}  // namespace
}  // namespace onyx
