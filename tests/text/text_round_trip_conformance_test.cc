// Acceptance: every conformance model, printed in the text syntax and read back by onyx's own
// parser, is the model it was (field by field; doc strings and the like, which the syntax
// cannot spell, are skipped), and the text printed from the model read back is the same text.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "onyx/text/printer.h"
#include "support/conformance.h"
#include "support/model_equal.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

TEST(TextRoundTripConformance, BinaryToTextToBinaryGivesAnEqualModel) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  testing::ModelEqualOptions options;
  options.ignore_text_losses = true;
  size_t equal = 0;
  std::vector<std::string> failures;
  for (const fs::path& dir : cases) {
    std::string name = dir.filename().string();
    auto original = loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(original) << name << ": " << original.status().toString();
    std::string text = printModel(*original);
    auto parsed = parseText(text);
    if (!parsed) {
      failures.push_back(name + ": the text does not parse: " + parsed.status().toString());
      continue;
    }
    // Through the binary format too, as `onyx convert` writes it.
    auto bytes = serializeModel(*parsed);
    ASSERT_TRUE(bytes) << name << ": " << bytes.status().toString();
    auto reread = parseModel(*bytes, nullptr);
    if (!reread) {
      failures.push_back(name +
                         ": the parsed model does not decode: " + reread.status().toString());
      continue;
    }
    if (auto difference = testing::firstDifference(*original, *reread, options)) {
      failures.push_back(name + ": " + difference->toString());
      continue;
    }
    if (std::string again = printModel(*reread); again != text) {
      failures.push_back(name + ": the model read back prints differently");
      continue;
    }
    ++equal;
  }
  std::cout << equal << "/" << cases.size() << " equal\n";
  for (size_t i = 0; i < failures.size() && i < 20; ++i) std::cout << "  " << failures[i] << "\n";
  EXPECT_EQ(equal, cases.size());
}

}  // namespace
}  // namespace onyx
