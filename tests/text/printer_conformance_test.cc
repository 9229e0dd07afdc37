// Every conformance model prints, losing nothing; and where python3-onnx's (older) parser
// reads the text back, the model it builds is the model printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "onyx/serde/model_io.h"
#include "onyx/text/printer.h"
#include "support/conformance.h"
#include "support/model_equal.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

TEST(PrinterConformance, EveryModelPrintsWithoutLoss) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t clean = 0;
  std::vector<std::string> failures;
  for (const fs::path& dir : cases) {
    auto model = loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(model) << dir << ": " << model.status().toString();
    std::string text;
    std::vector<TextLoss> losses;
    printModel(*model, text, PrintOptions(), &losses);
    std::string name(model->graph->name.value_or(""));
    if (text.find(name + " (") == std::string::npos || text.back() != '\n') {
      failures.push_back(dir.filename().string() + ": the text has no graph " + name);
    } else if (!losses.empty()) {
      failures.push_back(dir.filename().string() + ": " + losses[0].path + ": " + losses[0].detail);
    } else {
      ++clean;
    }
  }
  std::cout << clean << "/" << cases.size() << " printed without loss\n";
  for (size_t i = 0; i < failures.size() && i < 20; ++i) std::cout << "  " << failures[i] << "\n";
  EXPECT_EQ(clean, cases.size());
}

bool pythonOnnxAvailable() {
  return std::system("/usr/bin/python3 -c 'import onnx.parser' >/dev/null 2>&1") == 0;
}

std::string runCapture(const std::string& command, int& status) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    status = -1;
    return output;
  }
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  status = pclose(pipe);
  return output;
}

// The parser: by default python3-onnx's, through onnx_parse_texts.py. ONYX_TEXT_ORACLE names
// another command taking the same manifest (TEXT<TAB>OUT lines; writes OUT for each text it
// accepts), for instance one built from onnx's HEAD parser.cc, which also reads the escapes,
// quoted names and newer types that 1.12 refuses.
TEST(PrinterConformance, OnnxsParserReadsTheTextAsTheSameModel) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  const char* oracle = std::getenv("ONYX_TEXT_ORACLE");
  const bool python_oracle = oracle == nullptr || *oracle == '\0';
  if (python_oracle && !pythonOnnxAvailable()) {
    GTEST_SKIP() << "python3-onnx is not installed (/usr/bin/python3)";
  }
  const std::string command = python_oracle ? std::string("/usr/bin/python3 " ONYX_SOURCE_DIR
                                                          "/tests/text/onnx_parse_texts.py")
                                            : std::string(oracle);
  char pattern[] = "/tmp/onyx-text-oracle-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  fs::path dir = pattern;

  std::vector<Model> models(cases.size());
  size_t escaped = 0;
  {
    std::ofstream manifest(dir / "manifest.tsv");
    for (size_t i = 0; i < cases.size(); ++i) {
      auto model = loadModel((cases[i] / "model.onnx").string());
      ASSERT_TRUE(model) << cases[i] << ": " << model.status().toString();
      std::string text = printModel(*model);
      // The 1.12 parser has no escapes in strings (HEAD reads \" and \\), so it would read
      // such a text as another model.
      if (python_oracle && text.find('\\') != std::string::npos) {
        ++escaped;
        continue;
      }
      fs::path text_path = dir / (std::to_string(i) + ".txt");
      std::ofstream(text_path, std::ios::binary) << text;
      manifest << text_path.string() << '\t' << (dir / (std::to_string(i) + ".onnx")).string()
               << '\n';
      models[i] = std::move(model).value();
    }
  }
  int status = 0;
  std::string output =
      runCapture(command + " " + (dir / "manifest.tsv").string() + " 2>&1", status);
  EXPECT_EQ(status, 0) << output;

  size_t parsed = 0;
  size_t equal = 0;
  std::vector<std::string> failures;
  for (size_t i = 0; i < cases.size(); ++i) {
    fs::path binary = dir / (std::to_string(i) + ".onnx");
    if (!fs::exists(binary)) continue;  // refused by the older grammar
    ++parsed;
    auto back = loadModel(binary.string());
    if (!back) {
      failures.push_back(cases[i].filename().string() + ": " + back.status().toString());
      continue;
    }
    auto difference = testing::firstDifference(models[i], *back, {true});
    if (difference) {
      failures.push_back(cases[i].filename().string() + ": " + difference->toString());
    } else {
      ++equal;
    }
  }
  fs::remove_all(dir);
  std::cout << escaped << " not tried (escapes in strings); onnx " << output << equal << "/"
            << parsed << " equal\n";
  for (size_t i = 0; i < failures.size() && i < 20; ++i) std::cout << "  " << failures[i] << "\n";
  // Most models use only what the 1.12 grammar has; a drop here means the printer changed.
  if (python_oracle) {
    EXPECT_GT(parsed, cases.size() / 2);
  } else {
    EXPECT_EQ(parsed, cases.size());
  }
  EXPECT_EQ(equal, parsed);
}

}  // namespace
}  // namespace onyx
